import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { JobLockService } from '../coordination/job-lock.service';
import { CheckoutService, RecoveryRun } from './checkout.service';

export const CHECKOUT_RECOVERY_INTERVAL = 'checkout.recovery';
export const CHECKOUT_RECOVERY_EVERY_MS = 60_000;

/**
 * Every minute, one instance at a time (JobLockService), settles sessions left in complete_in_progress past their
 * claim's lease by reading the supplier's GET /orders/{ref} (CheckoutService.recoverExpired). Nothing is registered
 * when the scheduler is off (`SERVICE_SCHEDULER=off`); GET and complete of such a session recover it on demand.
 */
@Injectable()
export class CheckoutRecoveryScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(CheckoutRecoveryScheduler.name);
  private readonly running = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly schedulerRegistry: SchedulerRegistry,
    private readonly locks: JobLockService,
    private readonly checkout: CheckoutService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.schedulerEnabled) return;
    const timer = setInterval(() => void this.tick(), CHECKOUT_RECOVERY_EVERY_MS);
    timer.unref();
    this.schedulerRegistry.addInterval(CHECKOUT_RECOVERY_INTERVAL, timer);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.schedulerRegistry.doesExist('interval', CHECKOUT_RECOVERY_INTERVAL)) this.schedulerRegistry.deleteInterval(CHECKOUT_RECOVERY_INTERVAL);
    await Promise.allSettled([...this.running]);
  }

  /** One tick; null when another run holds the lock (here or on another instance) or after shutdown began. */
  async tick(): Promise<RecoveryRun | null> {
    if (this.stopped) return null;
    const p = this.locks
      .runExclusive(CHECKOUT_RECOVERY_INTERVAL, () => this.checkout.recoverExpired())
      .then((o) => (o.ran ? o.result : null))
      .catch((err: Error) => {
        this.logger.error(`checkout recovery failed: ${err.message}`);
        return null;
      });
    this.running.add(p);
    try {
      return await p;
    } finally {
      this.running.delete(p);
    }
  }
}
