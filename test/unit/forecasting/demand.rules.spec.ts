import { aggregateFromSeries, estimateDemand, stockedOutDays } from '../../../src/forecasting/demand/demand.rules';

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

  it('a day read at 0 with sales is stocked out: its sales (a lower bound) leave the units with it', () => {
    const a = aggregateFromSeries({ sales: [3, 1, 1, 1, 1, 1, 1, 1], snapshotEmpty: [true, false, false, false, false, false, false, false], stockNow: 3 });
    expect(a).toMatchObject({ snapshotEmptyDays: 1, snapshotEmptyUnits: 3, snapshotEmptySumSquares: 9 });
    const d = estimateDemand(a, settings);
    // 7 units over the 7 other days; the 10 sold in the window are still reported.
    expect(d).toMatchObject({ observedDays: 8, inStockDays: 7, stockedOutDays: 1, unitsSold: 10 });
    expect(d.ratePerDay).toBe(1);
    expect(d.sigmaDaily).toBe(0);
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

  it('history older than the machine’s readings starts at the machine’s first sale, not the slot’s', () => {
    const sales = [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0];
    // No reading at all (a backfilled ledger): the machine sold from day 0.
    const backfilled = estimateDemand(aggregateFromSeries({ sales, stockNow: 3, machineFirstSaleDay: 0 }), settings);
    expect(backfilled).toMatchObject({ observedDays: 16, inStockDays: 16 });
    expect(backfilled.ratePerDay).toBeCloseTo(2 / 16, 10);
    // The machine's readings start on day 2 and the slot was first read on day 4: it was installed then.
    const installed = estimateDemand(
      aggregateFromSeries({ sales, seen: [false, false, false, false, true], stockNow: 3, machineFirstSaleDay: 0, machineFirstSnapshotDay: 2 }),
      settings,
    );
    expect(installed.observedDays).toBe(12);
    // Readings began before the machine's first sale: the slot's first reading is the start.
    const read = aggregateFromSeries({ sales, seen: [false, true], stockNow: 3, machineFirstSaleDay: 2, machineFirstSnapshotDay: 1 });
    expect(estimateDemand(read, settings).observedDays).toBe(15);
  });

  it('a slot first read empty, before any sale, is not taken back to the machine’s ledger start', () => {
    const empty = [false, false, false, false, true];
    const a = aggregateFromSeries({ sales: [0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 0, 0], snapshotEmpty: empty, stockNow: 3, machineFirstSaleDay: 0, machineFirstSnapshotDay: 4 });
    expect(a.firstSnapshotEmpty).toBe(true);
    expect(estimateDemand(a, settings)).toMatchObject({ observedDays: 8, stockedOutDays: 1, inStockDays: 7 });
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
