import { Injectable } from '@nestjs/common';
import { ExclusiveIntervalJob } from '../coordination/exclusive-interval-job';
import { JobScheduling } from '../coordination/job-scheduling';
import { SyncStateRepository } from './sync-state.repository';
import { INVENTORY_PERIOD_MS, LEDGER_PERIOD_MS, SCHEDULER_CHECK_MS, tickOf } from './sync.rules';
import { SyncService } from './sync.service';

/**
 * A scheduled sync: each instance checks every 30 seconds; the sync runs when its tick (wall-clock period number)
 * has not been claimed yet. The claim is an atomic row update in the database and the pass holds the job lock, so with
 * several instances on one database each tick runs once and two runs of one sync never overlap. The ledger and
 * inventory syncs are separate jobs (separate locks): a long inventory run does not hold back the ledger's tick.
 */
abstract class PeriodicSyncJob extends ExclusiveIntervalJob<boolean> {
  protected constructor(
    scheduling: JobScheduling,
    private readonly state: SyncStateRepository,
    private readonly job: 'ledger' | 'inventory',
    private readonly periodMs: number,
  ) {
    super(scheduling, `sync.${job}`, SCHEDULER_CHECK_MS);
  }

  protected abstract sync(now: number): Promise<unknown>;

  /** True when this instance claimed the tick of `now` and ran the sync. */
  protected async pass(now: number): Promise<boolean> {
    if (!(await this.state.claimTick(`schedule:${this.job}`, tickOf(now, this.periodMs)))) return false;
    await this.sync(now);
    return true;
  }
}

/** The ledger every 5 minutes over the last 3 hours. */
@Injectable()
export class LedgerSyncJob extends PeriodicSyncJob {
  constructor(
    scheduling: JobScheduling,
    state: SyncStateRepository,
    private readonly syncs: SyncService,
  ) {
    super(scheduling, state, 'ledger', LEDGER_PERIOD_MS);
  }

  protected sync(now: number): Promise<unknown> {
    return this.syncs.scheduledLedger(now);
  }
}

/** Inventory hourly, per machine of the default namespace. */
@Injectable()
export class InventorySyncJob extends PeriodicSyncJob {
  constructor(
    scheduling: JobScheduling,
    state: SyncStateRepository,
    private readonly syncs: SyncService,
  ) {
    super(scheduling, state, 'inventory', INVENTORY_PERIOD_MS);
  }

  protected sync(): Promise<unknown> {
    return this.syncs.scheduledInventory();
  }
}
