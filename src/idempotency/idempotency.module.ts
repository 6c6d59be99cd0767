import { Global, Module } from '@nestjs/common';
import { ClaimsModule } from '../claims/claims.module';
import { IdempotencyService } from './idempotency.service';

@Global()
@Module({ imports: [ClaimsModule], providers: [IdempotencyService], exports: [IdempotencyService] })
export class IdempotencyModule {}
