import { Module } from '@nestjs/common';
import { MoneyClaims } from './money-claims.service';

/** The money-claims core (claim with a lease, call once, record, recover by reading). */
@Module({
  providers: [MoneyClaims],
  exports: [MoneyClaims],
})
export class ClaimsModule {}
