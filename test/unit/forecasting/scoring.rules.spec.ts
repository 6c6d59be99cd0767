import { addSums, reportOf, sumsOf } from '../../../src/forecasting/scoring.rules';

describe('forecast scoring (known answers)', () => {
  // forecast F, actual A, naive N (units sold in the horizon before the plan)
  const rows = [
    { forecast: 10, actual: 8, naive: 12 }, // |A−F| 2, |A−N| 4
    { forecast: 5, actual: 7, naive: 3 }, // 2, 4
    { forecast: 0, actual: 5, naive: 5 }, // 5, 0
  ];

  it('WAPE, bias and MASE against the naive forecast', () => {
    const s = sumsOf(rows);
    expect(s).toEqual({ count: 3, actual: 20, forecast: 15, absError: 9, naiveAbsError: 8 });
    expect(reportOf(s)).toEqual({ forecasts: 3, actualUnits: 20, forecastUnits: 15, wape: 0.45, bias: -0.25, mase: 1.125, mae: 3 });
  });

  it('sums combine per location into the overall report', () => {
    expect(addSums(sumsOf(rows.slice(0, 1)), sumsOf(rows.slice(1)))).toEqual(sumsOf(rows));
  });

  it('undefined measures are null, never a division by zero', () => {
    expect(reportOf(sumsOf([{ forecast: 2, actual: 0, naive: 0 }]))).toEqual({
      forecasts: 1,
      actualUnits: 0,
      forecastUnits: 2,
      wape: null,
      bias: null,
      mase: null,
      mae: 2,
    });
  });
});
