import fc from 'fast-check';
import { overCapOrReference, referenceOf } from '../../../src/pricing/price-reference.rules';

const cap = { maxMoveFen: 200, maxMovePercent: 25 };
// 2026-11-25 10:00 +08:00, and that day's start (00:00 +08:00 = 16:00 UTC the day before).
const now = new Date('2026-11-25T02:00:00Z');
const dayStart = new Date('2026-11-24T16:00:00Z');

describe('price reference (issue 26)', () => {
  it('no reference kept today: the price now is the day\'s start price, to be stored by the first change', () => {
    expect(referenceOf({ priceFen: 500, referenceFen: null, referenceAt: null, referenceSource: null }, now)).toEqual({ fen: 500, source: 'day_start', since: dayStart, stored: false });
  });

  it('a reference kept today holds; one from an earlier +08:00 day is over', () => {
    const today = new Date('2026-11-24T16:00:00Z'); // 00:00 +08:00 today
    expect(referenceOf({ priceFen: 625, referenceFen: 500, referenceAt: today, referenceSource: 'day_start' }, now)).toEqual({ fen: 500, source: 'day_start', since: dayStart, stored: true });
    const yesterday = new Date('2026-11-24T15:59:59Z'); // 23:59:59 +08:00 the day before
    expect(referenceOf({ priceFen: 625, referenceFen: 500, referenceAt: yesterday, referenceSource: 'day_start' }, now)).toEqual({ fen: 625, source: 'day_start', since: dayStart, stored: false });
  });

  it('an approved price is the reference from when it was made', () => {
    const at = new Date('2026-11-25T01:00:00Z');
    expect(referenceOf({ priceFen: 750, referenceFen: 750, referenceAt: at, referenceSource: 'approved' }, now)).toEqual({ fen: 750, source: 'approved', since: at, stored: true });
  });

  it('the issue\'s walk: 500 → 625 is within; 625 → 750 is within the step but over against the reference 500', () => {
    expect(overCapOrReference(cap, { currentFen: 500, referenceFen: 500, newFen: 625 })).toBe(false);
    expect(overCapOrReference(cap, { currentFen: 625, referenceFen: 500, newFen: 750 })).toBe(true);
    // Back down within the day's band is within; a big step is over even when it lands near the reference.
    expect(overCapOrReference(cap, { currentFen: 625, referenceFen: 500, newFen: 500 })).toBe(false);
    expect(overCapOrReference(cap, { currentFen: 700, referenceFen: 500, newFen: 450 })).toBe(true);
  });

  it('property: steps each within the cap never take a price past the cap of its day\'s reference', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.array(fc.integer({ min: -50_000, max: 50_000 }), { maxLength: 30 }), (start, steps) => {
        let price = start;
        for (const step of steps) {
          const next = Math.max(0, price + step);
          if (!overCapOrReference(cap, { currentFen: price, referenceFen: start, newFen: next })) price = next;
        }
        const move = Math.abs(price - start);
        return move <= cap.maxMoveFen && move * 100 <= cap.maxMovePercent * start;
      }),
    );
  });
});
