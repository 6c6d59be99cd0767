import { Module } from '@nestjs/common';
import { SalesRepository } from './sales.repository';

/** The synced sales ledger copy. */
@Module({
  providers: [SalesRepository],
  exports: [SalesRepository],
})
export class SalesModule {}
