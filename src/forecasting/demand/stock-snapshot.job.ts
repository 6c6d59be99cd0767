import { Injectable } from '@nestjs/common';
import { ExclusiveIntervalJob } from '../../coordination/exclusive-interval-job';
import { JobScheduling } from '../../coordination/job-scheduling';
import { SnapshotService } from './snapshot.service';

export const STOCK_SNAPSHOT_INTERVAL = 'replenishment.stock-snapshot';
const HOUR_MS = 3_600_000;

/** Hourly (the inventory sync's cadence), one instance at a time, records each slot's lowest stock of the day. */
@Injectable()
export class StockSnapshotJob extends ExclusiveIntervalJob<void> {
  constructor(
    scheduling: JobScheduling,
    private readonly snapshots: SnapshotService,
  ) {
    super(scheduling, STOCK_SNAPSHOT_INTERVAL, HOUR_MS);
  }

  protected pass(): Promise<void> {
    return this.snapshots.record();
  }
}
