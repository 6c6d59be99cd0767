import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { AppConfig } from '../config/app-config';
import { JobLockService } from './job-lock.service';

/**
 * A job that runs every `everyMs` on one instance at a time (JobLockService), is not registered when the scheduler is
 * off (`SERVICE_SCHEDULER=off`), and lets its running pass finish before shutdown. Subclasses say what one pass does.
 */
export abstract class ExclusiveIntervalJob<T> implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected readonly logger: Logger;
  private readonly running = new Set<Promise<unknown>>();
  private stopped = false;

  protected constructor(
    private readonly name: string,
    private readonly everyMs: number,
    private readonly config: AppConfig,
    private readonly schedulerRegistry: SchedulerRegistry,
    private readonly locks: JobLockService,
  ) {
    this.logger = new Logger(name);
  }

  /** One pass of the job. */
  protected abstract pass(): Promise<T>;

  onApplicationBootstrap(): void {
    if (!this.config.schedulerEnabled) return;
    const timer = setInterval(() => void this.tick(), this.everyMs);
    timer.unref();
    this.schedulerRegistry.addInterval(this.name, timer);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.schedulerRegistry.doesExist('interval', this.name)) this.schedulerRegistry.deleteInterval(this.name);
    await Promise.allSettled([...this.running]);
  }

  /** One tick; null when another run holds the lock (here or on another instance) or after shutdown began. */
  async tick(): Promise<T | null> {
    if (this.stopped) return null;
    const p = this.locks
      .runExclusive(this.name, () => this.pass())
      .then((o) => (o.ran ? o.result : null))
      .catch((err: Error) => {
        this.logger.error(`${this.name} failed: ${err.message}`);
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
