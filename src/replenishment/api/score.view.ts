/** The UCP JSON of GET /replenishment/score, rendered once from the domain score (pure: no Nest, no TypeORM). */
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import type { ScoreReport } from '../../forecasting/scoring.rules';
import type { ForecastScore } from '../../forecasting/scoring.service';
import type { ScoreResponse } from './score.responses';

const SCORE_METHOD =
  'forecast = rate_per_day × horizon_days from the plan time; actual = paid units of settled sales in that horizon; ' +
  'WAPE = Σ|A−F|/ΣA; bias = Σ(F−A)/ΣA (positive over-forecasts); MASE = Σ|A−F|/Σ|A−N| with N the units sold in the ' +
  'horizon before the plan (naive forecast; below 1 beats it)';

function renderReport(r: ScoreReport) {
  return { forecasts: r.forecasts, actual_units: r.actualUnits, forecast_units: r.forecastUnits, wape: r.wape, bias: r.bias, mase: r.mase, mae: r.mae };
}

export function renderScore(s: ForecastScore): ResponseBody<ScoreResponse> {
  return {
    horizon_days: s.horizonDays,
    total_forecasts: s.totalForecasts,
    pending: s.pending,
    reports: {
      headline: 'wape',
      overall: renderReport(s.overall),
      per_location: s.perLocation.map((r) => ({ location: r.location, ...renderReport(r) })),
      method: SCORE_METHOD,
    },
  };
}
