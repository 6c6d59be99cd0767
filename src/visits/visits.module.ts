import { Module } from '@nestjs/common';
import { ClockModule } from '../common/clock.module';
import { EventsModule } from '../events/events.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { ReplenishmentModule } from '../replenishment/replenishment.module';
import { RouteSettingsService } from './route-settings.service';
import { VisitRecordService } from './visit-record.service';
import { VisitsController } from './api/visits.controller';
import { VisitsRepository } from './visits.repository';
import { VisitsService } from './visits.service';

/** The route day: which machines to visit today and what to bring, visits recorded, route settings. */
@Module({
  imports: [ClockModule, ReplenishmentModule, EventsModule, IdempotencyModule],
  controllers: [VisitsController],
  providers: [VisitsRepository, VisitsService, VisitRecordService, RouteSettingsService],
})
export class VisitsModule {}
