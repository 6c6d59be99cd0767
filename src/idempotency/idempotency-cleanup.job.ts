import { Injectable } from '@nestjs/common';
import { ExclusiveIntervalJob } from '../coordination/exclusive-interval-job';
import { JobScheduling } from '../coordination/job-scheduling';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { CLEANUP_BATCH, CLEANUP_MAX_BATCHES, KEY_RETENTION_HOURS } from './idempotency.rules';

export const IDEMPOTENCY_CLEANUP_INTERVAL = 'idempotency.cleanup';
export const IDEMPOTENCY_CLEANUP_EVERY_MS = 15 * 60_000;

/**
 * Keys are kept KEY_RETENTION_HOURS (docs/adr/0019-idempotency-keys.md); every 15 minutes one instance deletes the older ones,
 * in batches (short statements, no long lock on the table) through the created_at index. A key past retention is
 * also replaced on its next use (IdempotencyService.run), so the job only bounds the table's size.
 */
@Injectable()
export class IdempotencyCleanupJob extends ExclusiveIntervalJob<number> {
  constructor(
    scheduling: JobScheduling,
    private readonly keys: IdempotencyKeysRepository,
  ) {
    super(scheduling, IDEMPOTENCY_CLEANUP_INTERVAL, IDEMPOTENCY_CLEANUP_EVERY_MS);
  }

  /** Deletes keys past retention; returns how many. */
  protected async pass(): Promise<number> {
    let total = 0;
    for (let i = 0; i < CLEANUP_MAX_BATCHES; i++) {
      const n = await this.keys.deleteExpiredBatch(CLEANUP_BATCH);
      total += n;
      if (n < CLEANUP_BATCH) break;
    }
    if (total) this.logger.log(`deleted ${total} idempotency keys older than ${KEY_RETENTION_HOURS} h`);
    return total;
  }
}
