import { Module } from '@nestjs/common';
import { ClockModule } from '../common/clock.module';
import { CoordinationModule } from '../coordination/coordination.module';
import { DemandRepository } from './demand/demand.repository';
import { ForecastingRepository } from './forecasting.repository';
import { LeadTimeService } from './lead-time.service';
import { ScoringService } from './scoring.service';
import { SnapshotService } from './demand/snapshot.service';
import { StockSnapshotJob } from './demand/stock-snapshot.job';

/** Demand and lead-time inputs of the plan, stock snapshots, recorded forecasts and their scoring. */
@Module({
  imports: [ClockModule, CoordinationModule],
  providers: [DemandRepository, ForecastingRepository, LeadTimeService, ScoringService, SnapshotService, StockSnapshotJob],
  exports: [DemandRepository, ForecastingRepository, LeadTimeService, ScoringService, SnapshotService],
})
export class ForecastingModule {}
