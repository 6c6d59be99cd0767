import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { ExclusiveIntervalJob } from '../coordination/exclusive-interval-job';
import { JobLockService } from '../coordination/job-lock.service';
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
    @Inject(APP_CONFIG) config: AppConfig,
    schedulerRegistry: SchedulerRegistry,
    locks: JobLockService,
    private readonly recovery: CheckoutRecoveryService,
  ) {
    super(CHECKOUT_RECOVERY_INTERVAL, CHECKOUT_RECOVERY_EVERY_MS, config, schedulerRegistry, locks);
  }

  protected pass(): Promise<RecoveryRun> {
    return this.recovery.recoverExpired();
  }
}
