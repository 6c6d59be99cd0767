import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { ForecastingRepository } from './forecasting.repository';

/**
 * Inventory snapshots: the lowest stock of each slot per +08:00 day, which tells the demand estimate which days a
 * slot stood empty. Taken hourly (StockSnapshotJob), at each plan and after a delivery; the machines
 * sync may call `record()` after it writes slots.
 */
@Injectable()
export class SnapshotService {
  constructor(
    private readonly repo: ForecastingRepository,
    private readonly clock: Clock,
  ) {}

  record(location?: string): Promise<void> {
    return this.repo.recordSnapshot(location, this.clock.now());
  }
}
