import { Global, Module } from '@nestjs/common';
import { ClaimsModule } from '../claims/claims.module';
import { IdempotencyCleanupJob } from './idempotency-cleanup.job';
import { IdempotencyService } from './idempotency.service';

@Global()
@Module({ imports: [ClaimsModule], providers: [IdempotencyService, IdempotencyCleanupJob], exports: [IdempotencyService] })
export class IdempotencyModule {}
