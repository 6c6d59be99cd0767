/**
 * Forecast accuracy (pure). A forecast made at t for slot x predicts `rate × h` units over [t, t+h days);
 * the actual is the units sold (paid lines of settled orders) in that interval; the naive forecast is the
 * units sold in the h days before t ("the next h days sell like the last h days").
 *
 *   WAPE = Σ|A − F| / ΣA                 (headline; null when nothing sold)
 *   bias = Σ(F − A) / ΣA                 (> 0 over-forecasts, < 0 under-forecasts)
 *   MASE = Σ|A − F| / Σ|A − N|           (< 1 beats the naive forecast; null when the naive one is perfect)
 */
export interface ScoredForecast {
  forecast: number;
  actual: number;
  naive: number;
}

export interface ScoreSums {
  count: number;
  actual: number;
  forecast: number;
  absError: number;
  naiveAbsError: number;
}

/** The accuracy of a set of forecasts (domain data; the edge that serves GET /replenishment/score renders it). */
export interface ScoreReport {
  forecasts: number;
  actualUnits: number;
  forecastUnits: number;
  wape: number | null;
  bias: number | null;
  mase: number | null;
  mae: number | null;
}

export const EMPTY_SUMS: ScoreSums = { count: 0, actual: 0, forecast: 0, absError: 0, naiveAbsError: 0 };

export function sumsOf(rows: ScoredForecast[]): ScoreSums {
  return rows.reduce<ScoreSums>(
    (s, r) => ({
      count: s.count + 1,
      actual: s.actual + r.actual,
      forecast: s.forecast + r.forecast,
      absError: s.absError + Math.abs(r.actual - r.forecast),
      naiveAbsError: s.naiveAbsError + Math.abs(r.actual - r.naive),
    }),
    EMPTY_SUMS,
  );
}

export function addSums(a: ScoreSums, b: ScoreSums): ScoreSums {
  return {
    count: a.count + b.count,
    actual: a.actual + b.actual,
    forecast: a.forecast + b.forecast,
    absError: a.absError + b.absError,
    naiveAbsError: a.naiveAbsError + b.naiveAbsError,
  };
}

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

export function reportOf(s: ScoreSums): ScoreReport {
  return {
    forecasts: s.count,
    actualUnits: r4(s.actual),
    forecastUnits: r4(s.forecast),
    wape: s.actual > 0 ? r4(s.absError / s.actual) : null,
    bias: s.actual > 0 ? r4((s.forecast - s.actual) / s.actual) : null,
    mase: s.naiveAbsError > 0 ? r4(s.absError / s.naiveAbsError) : null,
    mae: s.count > 0 ? r4(s.absError / s.count) : null,
  };
}
