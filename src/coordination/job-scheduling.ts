import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { JobLockService } from './job-lock.service';

/**
 * What a scheduled job needs from the app, in one injectable so a job's constructor names only its own work:
 * the interval timer (registered only when this instance runs the scheduler) and the per-tick lock.
 */
@Injectable()
export class JobScheduling {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    readonly locks: JobLockService,
    /** Each tick's outcome, duration and last success (issue 28). */
    readonly metrics: MetricsService,
  ) {}

  /** Calls `tick` every `everyMs` under `name`; registers nothing when the scheduler is off (`SERVICE_SCHEDULER=off`). */
  every(name: string, everyMs: number, tick: () => void): void {
    if (!this.config.schedulerEnabled) return;
    const timer = setInterval(tick, everyMs);
    timer.unref();
    this.registry.addInterval(name, timer);
  }

  cancel(name: string): void {
    if (this.registry.doesExist('interval', name)) this.registry.deleteInterval(name);
  }
}
