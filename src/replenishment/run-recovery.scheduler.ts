import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { JobLockService } from '../coordination/job-lock.service';
import { RunRecoveryPass, RunsService } from './runs.service';

export const RUN_RECOVERY_INTERVAL = 'replenishment.recovery';
export const RUN_RECOVERY_EVERY_MS = 60_000;

/**
 * Every minute, one instance at a time (JobLockService), settles replenishment runs left in `placing` past their
 * claim's lease by reading their fulfiller (RunsService.recoverExpired). Nothing is registered when the scheduler is
 * off (`SERVICE_SCHEDULER=off`); GET and place of such a run recover it on demand.
 */
@Injectable()
export class RunRecoveryScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RunRecoveryScheduler.name);
  private readonly running = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly schedulerRegistry: SchedulerRegistry,
    private readonly locks: JobLockService,
    private readonly runs: RunsService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.schedulerEnabled) return;
    const timer = setInterval(() => void this.tick(), RUN_RECOVERY_EVERY_MS);
    timer.unref();
    this.schedulerRegistry.addInterval(RUN_RECOVERY_INTERVAL, timer);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.schedulerRegistry.doesExist('interval', RUN_RECOVERY_INTERVAL)) this.schedulerRegistry.deleteInterval(RUN_RECOVERY_INTERVAL);
    await Promise.allSettled([...this.running]);
  }

  /** One tick; null when another run holds the lock (here or on another instance) or after shutdown began. */
  async tick(): Promise<RunRecoveryPass | null> {
    if (this.stopped) return null;
    const p = this.locks
      .runExclusive(RUN_RECOVERY_INTERVAL, () => this.runs.recoverExpired())
      .then((o) => (o.ran ? o.result : null))
      .catch((err: Error) => {
        this.logger.error(`replenishment recovery failed: ${err.message}`);
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
