import { Injectable } from '@nestjs/common';
import { RecoveryTally } from '../claims/claim.rules';
import { ExclusiveIntervalJob } from '../coordination/exclusive-interval-job';
import { JobScheduling } from '../coordination/job-scheduling';
import { RestockRecoveryService } from './restock-recovery.service';

export const RESTOCK_RECOVERY_INTERVAL = 'restock.recovery';
export const RESTOCK_RECOVERY_EVERY_MS = 60_000;

/**
 * Every minute, one instance at a time, settles restock requests left `sending` past their claim's lease (or whose
 * call got no usable answer) by reading the platform's GET /restock/{ref} (RestockRecoveryService.recoverExpired).
 * A resend of such a reference recovers it on demand too.
 */
@Injectable()
export class RestockRecoveryScheduler extends ExclusiveIntervalJob<RecoveryTally & { unconfirmed: number }> {
  constructor(
    scheduling: JobScheduling,
    private readonly recovery: RestockRecoveryService,
  ) {
    super(scheduling, RESTOCK_RECOVERY_INTERVAL, RESTOCK_RECOVERY_EVERY_MS);
  }

  protected pass(): Promise<RecoveryTally & { unconfirmed: number }> {
    return this.recovery.recoverExpired();
  }
}
