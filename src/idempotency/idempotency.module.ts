import { Module } from '@nestjs/common';
import { ClaimsModule } from '../claims/claims.module';
import { CoordinationModule } from '../coordination/coordination.module';
import { IdempotencyCleanupJob } from './idempotency-cleanup.job';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencyService } from './idempotency.service';

/** Idempotency keys of the money-moving routes and their cleanup. */
@Module({
  imports: [ClaimsModule, CoordinationModule],
  providers: [IdempotencyKeysRepository, IdempotencyService, IdempotencyCleanupJob],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
