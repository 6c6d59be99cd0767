import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { ForecastingRepository } from '../../forecasting/forecasting.repository';
import { Plan } from './plan.types';

/**
 * What a plan leaves behind, kept apart from computing it: the stock snapshot of the slots it covers (today's
 * lowest stock, which tells later demand estimates which days a slot stood empty) and one forecast per slot per
 * day (scored by GET /replenishment/score). Called by the operations that stand on a plan, GET /plan and run
 * creation, through PlanService.computeAndRecord.
 */
@Injectable()
export class PlanRecorder {
  constructor(
    private readonly repo: ForecastingRepository,
    private readonly clock: Clock,
  ) {}

  /** `location`: the one location the plan covers, when it is limited to one. */
  recordSnapshot(location?: string): Promise<void> {
    return this.repo.recordSnapshot(location, this.clock.now());
  }

  recordForecasts(plan: Plan): Promise<void> {
    return this.repo.recordForecasts(
      plan.lines.map((l) => ({ slotId: l.slotId, locationId: l.locationId, ratePerDay: l.demand.ratePerDay, measured: l.demand.measured })),
      plan.computedAt,
    );
  }
}
