import fc from 'fast-check';
import { aggregateFromSeries, estimateDemand } from '../../../src/forecasting/demand/demand.rules';

const settings = { minHistoryDays: 3, fallbackRatePerDay: 1 };
const day = fc.record({ sold: fc.nat({ max: 6 }), empty: fc.boolean() });
/** A history with at least one sale: days of (units sold, read at 0). */
const history = fc.array(day, { minLength: 4, maxLength: 40 }).filter((h) => h.some((d) => d.sold > 0));

const estimate = (h: { sold: number; empty: boolean }[], stockNow: number, more: { seen?: boolean[]; machineFirstSaleDay?: number } = {}) =>
  estimateDemand(aggregateFromSeries({ sales: h.map((d) => d.sold), snapshotEmpty: h.map((d) => d.empty), stockNow, ...more }), settings);

describe('demand from a censored history (properties)', () => {
  it('a sold-out day (no sale, read at 0) inserted after the first sale leaves the rate and spread as they were', () => {
    fc.assert(
      fc.property(history, fc.nat(), fc.nat({ max: 5 }), (h, at, stockNow) => {
        const first = h.findIndex((d) => d.sold > 0);
        const i = first + 1 + (at % (h.length - first));
        const withOut = [...h.slice(0, i), { sold: 0, empty: true }, ...h.slice(i)];
        const before = estimate(h, stockNow);
        const after = estimate(withOut, stockNow);
        expect(after.stockedOutDays).toBe(before.stockedOutDays + 1);
        expect(after.inStockDays).toBe(before.inStockDays);
        expect(after.ratePerDay).toBeCloseTo(before.ratePerDay, 9);
        expect(after.sigmaDaily).toBeCloseTo(before.sigmaDaily, 9);
      }),
    );
  });

  it('a quiet day recognised as sold out never lowers the rate', () => {
    fc.assert(
      fc.property(history, fc.nat(), fc.integer({ min: 1, max: 5 }), (h, at, stockNow) => {
        // Quiet days after the first sale: before it, a reading at 0 also moves where the slot's observed days start.
        const first = h.findIndex((d) => d.sold > 0);
        const quiet = h.map((d, i) => (i > first && d.sold === 0 && !d.empty ? i : -1)).filter((i) => i >= 0);
        fc.pre(quiet.length > 0);
        const i = quiet[at % quiet.length];
        const before = estimate(h, stockNow);
        const after = estimate(h.map((d, j) => (j === i ? { sold: 0, empty: true } : d)), stockNow);
        fc.pre(before.measured && after.measured);
        expect(after.ratePerDay).toBeGreaterThanOrEqual(before.ratePerDay - 1e-12);
      }),
    );
  });

  it('leading quiet days in stock before the first sale lower the rate to the mean over the in-stock days', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), history, (lead, h) => {
        // In stock until the first sale: quiet days, none read at 0.
        const first = h.findIndex((d) => d.sold > 0);
        const full = [...Array.from({ length: lead }, () => ({ sold: 0, empty: false })), ...h.map((d, i) => (i < first ? { sold: 0, empty: false } : d))];
        const firstSaleOnly = estimate(full, 3);
        // The slot was read in stock on day 0 (or, with no reading, its machine sold that day).
        for (const more of [{ seen: [true] }, { machineFirstSaleDay: 0 }]) {
          const known = estimate(full, 3, more);
          const inStock = full.filter((d) => !d.empty);
          const truth = inStock.reduce((t, d) => t + d.sold, 0) / inStock.length;
          expect(known.observedDays).toBe(full.length);
          if (known.measured) expect(known.ratePerDay).toBeCloseTo(truth, 9);
          if (known.measured && firstSaleOnly.measured) expect(known.ratePerDay).toBeLessThanOrEqual(firstSaleOnly.ratePerDay + 1e-12);
        }
      }),
    );
  });
});
