import { Module } from '@nestjs/common';
import { ReplenishmentModule } from '../replenishment/replenishment.module';
import { OpenRunPickSource, PICK_SOURCES, type PickSource } from './pick-sources';
import { VisitsController } from './visits.controller';
import { VisitsRepository } from './visits.repository';
import { VisitsService } from './visits.service';

/** `GET /visits` (issue 30): the machines to visit today with their pick lists. A depot source joins PICK_SOURCES. */
@Module({
  imports: [ReplenishmentModule],
  controllers: [VisitsController],
  providers: [
    VisitsRepository,
    VisitsService,
    OpenRunPickSource,
    { provide: PICK_SOURCES, useFactory: (runs: OpenRunPickSource): PickSource[] => [runs], inject: [OpenRunPickSource] },
  ],
})
export class VisitsModule {}
