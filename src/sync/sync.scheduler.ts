import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { JobLockService } from '../coordination/job-lock.service';
import { SyncStateRepository } from './sync-state.repository';
import { INVENTORY_PERIOD_MS, LEDGER_PERIOD_MS, SCHEDULER_CHECK_MS, tickOf } from './sync.rules';
import { SyncService } from './sync.service';

export const SYNC_CHECK_INTERVAL = 'sync.check';
export type ScheduledJob = 'ledger' | 'inventory';

/**
 * The scheduled syncs: the ledger every 5 minutes, inventory hourly. Each instance checks every 30 seconds; a job
 * runs when its tick (wall-clock period number) has not been claimed yet. The claim is an atomic row update in the
 * database and the run holds the job lock, so with several instances on one database each tick runs once and two
 * runs of one job never overlap. Nothing is registered when the scheduler is off (`SERVICE_SCHEDULER=off`).
 */
@Injectable()
export class SyncScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SyncScheduler.name);
  private readonly running = new Set<Promise<boolean>>();
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly schedulerRegistry: SchedulerRegistry,
    private readonly locks: JobLockService,
    private readonly state: SyncStateRepository,
    private readonly sync: SyncService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.schedulerEnabled) return;
    const timer = setInterval(() => void this.check(), SCHEDULER_CHECK_MS);
    timer.unref();
    this.schedulerRegistry.addInterval(SYNC_CHECK_INTERVAL, timer);
  }

  /** Stops checking and lets running jobs finish before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.schedulerRegistry.doesExist('interval', SYNC_CHECK_INTERVAL)) this.schedulerRegistry.deleteInterval(SYNC_CHECK_INTERVAL);
    await Promise.allSettled([...this.running]);
  }

  /**
   * One check of both jobs. They run independently: a long inventory run does not hold back the ledger's tick
   * (a job still running in this instance is skipped by the job lock, without claiming the tick).
   */
  async check(now = Date.now()): Promise<Record<ScheduledJob, boolean>> {
    if (this.stopped) return { ledger: false, inventory: false };
    const [ledger, inventory] = await Promise.all([this.track(this.runIfDue('ledger', now)), this.track(this.runIfDue('inventory', now))]);
    return { ledger, inventory };
  }

  private track(p: Promise<boolean>): Promise<boolean> {
    this.running.add(p);
    return p.finally(() => this.running.delete(p));
  }

  /** Runs `job` if its tick at `now` is unclaimed; true when this instance ran it. */
  async runIfDue(job: ScheduledJob, now = Date.now()): Promise<boolean> {
    const tick = tickOf(now, job === 'ledger' ? LEDGER_PERIOD_MS : INVENTORY_PERIOD_MS);
    try {
      const outcome = await this.locks.runExclusive(`sync.${job}`, async () => {
        if (!(await this.state.claimTick(`schedule:${job}`, tick))) return false;
        if (job === 'ledger') await this.sync.scheduledLedger(now);
        else await this.sync.scheduledInventory();
        return true;
      });
      return outcome.ran && outcome.result;
    } catch (err) {
      // The sync records its own partner failures; this is a database or programming failure.
      this.logger.error(`scheduled ${job} sync failed: ${(err as Error).message}`);
      return false;
    }
  }
}
