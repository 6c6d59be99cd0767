import { Inject, Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { EntityManager } from 'typeorm';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { JobLockService } from '../coordination/job-lock.service';
import { ForecastingRepository } from './forecasting.repository';

const HOUR_MS = 3_600_000;

/**
 * Inventory snapshots: the lowest stock of each slot per +08:00 day, which tells the demand estimate which days a
 * slot stood empty. Taken hourly (the inventory sync's cadence), at each plan and after a delivery; the machines
 * sync may call `record()` after it writes slots.
 */
@Injectable()
export class SnapshotService {
  private readonly logger = new Logger(SnapshotService.name);
  constructor(
    private readonly repo: ForecastingRepository,
    private readonly locks: JobLockService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  record(location?: string, manager?: EntityManager): Promise<void> {
    return this.repo.recordSnapshot(location, manager);
  }

  @Interval('replenishment.stock-snapshot', HOUR_MS)
  async hourly(): Promise<void> {
    if (!this.config.schedulerEnabled) return;
    try {
      await this.locks.runExclusive('replenishment.stock-snapshot', () => this.record());
    } catch (err) {
      this.logger.warn(`stock snapshot failed: ${(err as Error).message}`);
    }
  }
}
