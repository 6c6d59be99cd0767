import { Injectable } from '@nestjs/common';
import { ForecastingRepository } from './forecasting.repository';
import { addSums, EMPTY_SUMS, reportOf, ScoreReport } from './scoring.rules';

/** The recorded forecasts scored over a horizon (domain data; the edge of GET /replenishment/score renders it). */
export interface ForecastScore {
  horizonDays: number;
  /** Every recorded forecast. */
  totalForecasts: number;
  /** Forecasts whose horizon has not passed yet (too young to score). */
  pending: number;
  overall: ScoreReport;
  perLocation: (ScoreReport & { location: string })[];
}

/** Scores the recorded forecasts whose horizon has passed against settled sales (scoring.rules.ts). */
@Injectable()
export class ScoringService {
  constructor(private readonly repo: ForecastingRepository) {}

  async score(horizonDays: number, now = new Date()): Promise<ForecastScore> {
    const [counts, perLocation] = await Promise.all([this.repo.forecastCounts(horizonDays, now), this.repo.scoreSums(horizonDays, now)]);
    const overall = perLocation.reduce((t, s) => addSums(t, s), EMPTY_SUMS);
    return {
      horizonDays,
      totalForecasts: counts.total,
      pending: counts.pending,
      overall: reportOf(overall),
      perLocation: perLocation.map((s) => ({ location: s.locationId, ...reportOf(s) })),
    };
  }
}
