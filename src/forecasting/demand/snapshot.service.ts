import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { ForecastingRepository } from '../forecasting.repository';

/**
 * Inventory snapshots of the synced copy: the lowest stock of each slot per +08:00 day (service clock), which tells
 * the demand estimate which days a slot stood empty. Taken hourly (StockSnapshotJob) and at each plan; the inventory
 * sync, deliveries and depot fills record their own readings as they write stock (`recordStockReadings`).
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
