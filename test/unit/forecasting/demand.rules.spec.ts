import { aggregateFromSeries, estimateDemand, stockedOutDays } from '../../../src/forecasting/demand.rules';

const settings = { minHistoryDays: 7, fallbackRatePerDay: 1 };

describe('demand rate (known answers)', () => {
  it('excludes zero-sale days a snapshot saw empty, and measures mean and sample deviation over in-stock days', () => {
    // Days 0..9; days 3 and 4 had no sale while a snapshot saw the slot empty.
    const a = aggregateFromSeries({
      sales: [2, 0, 3, 0, 0, 1, 4, 0, 2, 0],
      snapshotEmpty: [false, false, false, true, true, false, false, false, false, false],
      stockNow: 5,
    });
    expect(a).toMatchObject({ units: 12, sumSquares: 34, firstSaleDay: 0, lastSaleDay: 8, snapshotEmptyDays: 2, snapshotEmptyDaysAfterLastSale: 0 });
    const d = estimateDemand(a, settings);
    // n = 10 − 2 = 8; mean = 12/8 = 1.5; variance = (34 − 12²/8)/7 = 16/7.
    expect(d.measured).toBe(true);
    expect(d.inStockDays).toBe(8);
    expect(d.stockedOutDays).toBe(2);
    expect(d.ratePerDay).toBeCloseTo(1.5, 10);
    expect(d.sigmaDaily).toBeCloseTo(Math.sqrt(16 / 7), 10);
    expect(d.fallbackReason).toBeNull();
  });

  it('a snapshot showing the slot empty on a day with sales does not exclude that day', () => {
    const a = aggregateFromSeries({ sales: [1, 1, 1, 1, 1, 1, 1, 1], snapshotEmpty: [true, false, false, false, false, false, false, false], stockNow: 3 });
    const d = estimateDemand(a, settings);
    expect(d.inStockDays).toBe(8);
    expect(d.ratePerDay).toBe(1);
  });

  it('an empty slot stood empty since its last sale (the sale that exhausted the stock)', () => {
    const a = aggregateFromSeries({ sales: [1, 2, 0, 0, 0], stockNow: 0 });
    expect(stockedOutDays(a)).toEqual({ observedDays: 5, stockedOutDays: 3 });
    const d = estimateDemand(a, { minHistoryDays: 2, fallbackRatePerDay: 1 });
    // 3 units over the 2 in-stock days, not over 5 days (0.6).
    expect(d.ratePerDay).toBeCloseTo(1.5, 10);
    expect(d.sigmaDaily).toBeCloseTo(Math.sqrt(0.5), 10);
  });

  it('the same empty slot with stock again counts the quiet days as demand of zero', () => {
    const d = estimateDemand(aggregateFromSeries({ sales: [1, 2, 0, 0, 0], stockNow: 4 }), { minHistoryDays: 2, fallbackRatePerDay: 1 });
    expect(d.ratePerDay).toBeCloseTo(0.6, 10);
  });

  it('counts days only from when the slot was first seen', () => {
    const a = aggregateFromSeries({ sales: [0, 0, 0, 0, 2, 1, 0, 1, 1, 1, 2, 0], stockNow: 6 });
    const d = estimateDemand(a, settings);
    expect(d.observedDays).toBe(8);
    expect(d.ratePerDay).toBeCloseTo(8 / 8, 10);
    const seen = aggregateFromSeries({ sales: [0, 0, 0, 0, 2, 1, 0, 1, 1, 1, 2, 0], seen: [false, true], stockNow: 6 });
    expect(estimateDemand(seen, settings).observedDays).toBe(11);
  });

  it('too little history: stated fallback rate, Poisson deviation, and a reason', () => {
    const a = aggregateFromSeries({ sales: [0, 0, 0, 0, 0, 0, 0, 0, 3, 0], stockNow: 4 });
    const d = estimateDemand(a, { minHistoryDays: 7, fallbackRatePerDay: 2.25 });
    expect(d.measured).toBe(false);
    expect(d.inStockDays).toBe(2);
    expect(d.ratePerDay).toBe(2.25);
    expect(d.sigmaDaily).toBeCloseTo(1.5, 10);
    expect(d.fallbackReason).toMatch(/only 2 in-stock day/);
  });

  it('a slot never seen has no history', () => {
    const d = estimateDemand(aggregateFromSeries({ sales: new Array(30).fill(0), stockNow: 3 }), settings);
    expect(d).toMatchObject({ measured: false, observedDays: 0, ratePerDay: 1 });
  });
});
