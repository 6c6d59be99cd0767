import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { JobScheduling } from './job-scheduling';

/**
 * The one pattern for scheduled jobs. Every `everyMs` a tick runs one pass, on one instance at a time across every
 * instance sharing the database (JobLockService under the job's name); a tick that finds the previous pass still
 * running, here or elsewhere, is skipped. Nothing is scheduled when the scheduler is off (`SERVICE_SCHEDULER=off`);
 * `tick()` still runs a pass on demand (tests, recovery). A failing pass is logged and the next tick runs as usual.
 * Shutdown stops the timer and lets the running pass finish. Subclasses say what one pass does.
 *
 * Every job today must run once per tick across instances (each moves or reads partner state or writes shared
 * rows), so there is no per-instance variant.
 */
export abstract class ExclusiveIntervalJob<T> implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected readonly logger: Logger;
  private readonly running = new Set<Promise<unknown>>();
  private stopped = false;

  protected constructor(
    private readonly scheduling: JobScheduling,
    /** Names the interval and the lock (stable: other instances and versions take the same lock). */
    readonly name: string,
    private readonly everyMs: number,
  ) {
    this.logger = new Logger(name);
  }

  /** One pass of the job; `now` is the time of its tick. */
  protected abstract pass(now: number): Promise<T>;

  onApplicationBootstrap(): void {
    this.scheduling.every(this.name, this.everyMs, () => void this.tick());
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.scheduling.cancel(this.name);
    await Promise.allSettled([...this.running]);
  }

  /** One tick; null when the pass was skipped (lock held here or on another instance, or shutting down) or failed. */
  async tick(now = Date.now()): Promise<T | null> {
    if (this.stopped) return null;
    const start = performance.now();
    const seconds = () => (performance.now() - start) / 1000;
    const p = this.scheduling.locks
      .runExclusive(this.name, () => this.pass(now))
      .then((o) => {
        this.scheduling.metrics.observeJob(this.name, o.ran ? 'ran' : 'skipped', seconds(), o.ran ? o.result : undefined);
        return o.ran ? o.result : null;
      })
      .catch((err: Error) => {
        this.scheduling.metrics.observeJob(this.name, 'failed', seconds());
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
