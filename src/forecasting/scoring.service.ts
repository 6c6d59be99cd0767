import { Injectable } from '@nestjs/common';
import { ForecastingRepository } from './forecasting.repository';
import { addSums, EMPTY_SUMS, reportOf, ScoreReport } from './scoring.rules';

export interface ScoreView {
  horizon_days: number;
  total_forecasts: number;
  pending: number;
  reports: {
    headline: 'wape';
    overall: ScoreReport;
    per_location: (ScoreReport & { location: string })[];
    method: string;
  };
}

/** Scores the recorded forecasts whose horizon has passed against settled sales (scoring.rules.ts). */
@Injectable()
export class ScoringService {
  constructor(private readonly repo: ForecastingRepository) {}

  async score(horizonDays: number, now = new Date()): Promise<ScoreView> {
    const [counts, perLocation] = await Promise.all([this.repo.forecastCounts(horizonDays, now), this.repo.scoreSums(horizonDays, now)]);
    const overall = perLocation.reduce((t, s) => addSums(t, s), EMPTY_SUMS);
    return {
      horizon_days: horizonDays,
      total_forecasts: counts.total,
      pending: counts.pending,
      reports: {
        headline: 'wape',
        overall: reportOf(overall),
        per_location: perLocation.map((s) => ({ location: s.locationId, ...reportOf(s) })),
        method:
          'forecast = rate_per_day × horizon_days from the plan time; actual = paid units of settled sales in that horizon; ' +
          'WAPE = Σ|A−F|/ΣA; bias = Σ(F−A)/ΣA (positive over-forecasts); MASE = Σ|A−F|/Σ|A−N| with N the units sold in the ' +
          'horizon before the plan (naive forecast; below 1 beats it)',
      },
    };
  }
}
