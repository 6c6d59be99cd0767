import { Injectable } from '@nestjs/common';
import { ExclusiveIntervalJob } from '../coordination/exclusive-interval-job';
import { JobScheduling } from '../coordination/job-scheduling';
import { CheckoutRecoveryService, RecoveryRun } from './checkout-recovery.service';

export const CHECKOUT_RECOVERY_INTERVAL = 'checkout.recovery';
export const CHECKOUT_RECOVERY_EVERY_MS = 60_000;

/**
 * Every minute, one instance at a time, settles sessions left in complete_in_progress past their claim's lease by
 * reading the supplier's GET /orders/{ref} (CheckoutRecoveryService.recoverExpired). GET and complete of such a session
 * recover it on demand too.
 */
@Injectable()
export class CheckoutRecoveryScheduler extends ExclusiveIntervalJob<RecoveryRun> {
  constructor(
    scheduling: JobScheduling,
    private readonly recovery: CheckoutRecoveryService,
  ) {
    super(scheduling, CHECKOUT_RECOVERY_INTERVAL, CHECKOUT_RECOVERY_EVERY_MS);
  }

  protected pass(): Promise<RecoveryRun> {
    return this.recovery.recoverExpired();
  }
}
