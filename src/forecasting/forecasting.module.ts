import { Module } from '@nestjs/common';
import { CoordinationModule } from '../coordination/coordination.module';
import { DemandRepository } from './demand.repository';
import { ForecastingRepository } from './forecasting.repository';
import { LeadTimeService } from './lead-time.service';
import { ScoringService } from './scoring.service';
import { SnapshotService } from './snapshot.service';

/** Demand and lead-time inputs of the plan, stock snapshots, recorded forecasts and their scoring. */
@Module({
  imports: [CoordinationModule],
  providers: [DemandRepository, ForecastingRepository, LeadTimeService, ScoringService, SnapshotService],
  exports: [DemandRepository, ForecastingRepository, LeadTimeService, ScoringService, SnapshotService],
})
export class ForecastingModule {}
