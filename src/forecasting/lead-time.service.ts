import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { FORECASTING_DEFAULTS } from './forecasting.defaults';
import { ForecastingRepository } from './forecasting.repository';
import { LeadSampleSource, LeadTime, leadTimeOf } from './lead-time.rules';

/**
 * Lead time per fulfiller (mean and spread): measured from the fulfiller's completed deliveries (runs placed → each
 * line received for a supplier, per supplier for runs that buy from several; binding restock orders sent → completed
 * for a machine platform), else the stated default. The caller says where the samples are (LeadSampleSource).
 */
@Injectable()
export class LeadTimeService {
  constructor(
    private readonly repo: ForecastingRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async of(source: LeadSampleSource, fulfiller: string): Promise<LeadTime> {
    const max = FORECASTING_DEFAULTS.leadTimeSamples;
    const samples =
      source.from === 'runs_by_fulfiller'
        ? await this.repo.runLeadSamples(fulfiller, max)
        : source.from === 'runs_listing_supplier'
          ? await this.repo.supplierLineLeadSamples(source.runKinds, fulfiller, max)
          : await this.repo.restockLeadSamples(fulfiller, max);
    const d = FORECASTING_DEFAULTS;
    return leadTimeOf(samples, { days: d.statedLeadTimeDays, sigmaDays: this.config.statedLeadTimeSigmaDays ?? d.statedLeadTimeSigmaDays, maxSamples: d.leadTimeLineSamples });
  }
}
