import { Injectable } from '@nestjs/common';
import { FORECASTING_DEFAULTS } from './forecasting.defaults';
import { ForecastingRepository } from './forecasting.repository';
import { LeadTime, leadTimeOf } from './lead-time.rules';

export type FulfillerKind = 'simulated_supplier' | 'machine_restock' | 'supply_checkout';
export const FULFILLER_KINDS: readonly FulfillerKind[] = ['simulated_supplier', 'machine_restock', 'supply_checkout'];

/**
 * Lead time per fulfiller: measured from the fulfiller's completed deliveries (runs placed → delivered for a
 * supplier, per supplier for supply-checkout runs; binding restock orders sent → completed for a machine platform), else the stated default.
 */
@Injectable()
export class LeadTimeService {
  constructor(private readonly repo: ForecastingRepository) {}

  async of(kind: FulfillerKind, fulfiller: string): Promise<LeadTime> {
    const max = FORECASTING_DEFAULTS.leadTimeSamples;
    const samples =
      kind === 'simulated_supplier'
        ? await this.repo.runLeadSamples(fulfiller, max)
        : kind === 'supply_checkout'
          ? await this.repo.checkoutLeadSamples(fulfiller, max)
          : await this.repo.restockLeadSamples(fulfiller, max);
    return leadTimeOf(samples, { days: FORECASTING_DEFAULTS.statedLeadTimeDays, maxSamples: max });
  }
}
