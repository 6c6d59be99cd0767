import fc from 'fast-check';
import { floorRefusal, isDeepCut } from '../../../src/pricing/price-floor.rules';

const base = { costFen: null, allowBelowCost: false, allowDeepCut: false };

describe('the price floor (issue 29)', () => {
  it('refuses the unit mistake of the field report: 350 -> 4 fen', () => {
    expect(floorRefusal({ ...base, currentFen: 350, newFen: 4 })).toMatchObject({ field: 'allow_deep_cut' });
    expect(floorRefusal({ ...base, currentFen: 350, newFen: 4 })?.text).toMatch(/350 = ¥3\.50/);
    expect(floorRefusal({ ...base, currentFen: 350, newFen: 4, allowDeepCut: true })).toBeNull();
  });

  it('a cut of exactly 90% is allowed; one fen more is not', () => {
    expect(isDeepCut(1000, 100)).toBe(false);
    expect(isDeepCut(1000, 99)).toBe(true);
    expect(isDeepCut(0, 0)).toBe(false);
  });

  it('below the known purchase cost needs allow_below_cost; an unknown cost is no floor', () => {
    expect(floorRefusal({ ...base, currentFen: 350, newFen: 199, costFen: 200 })).toMatchObject({ field: 'allow_below_cost' });
    expect(floorRefusal({ ...base, currentFen: 350, newFen: 200, costFen: 200 })).toBeNull();
    expect(floorRefusal({ ...base, currentFen: 350, newFen: 199, costFen: 200, allowBelowCost: true })).toBeNull();
    expect(floorRefusal({ ...base, currentFen: 350, newFen: 199 })).toBeNull();
    // Below cost AND a deep cut: allowing one does not allow the other.
    expect(floorRefusal({ ...base, currentFen: 350, newFen: 4, costFen: 200, allowBelowCost: true })).toMatchObject({ field: 'allow_deep_cut' });
  });

  it('property: refused exactly when below a known cost or under 10% of the current price, without its go-ahead', () => {
    fc.assert(
      fc.property(fc.nat(100000), fc.nat(100000), fc.option(fc.nat(100000)), fc.boolean(), fc.boolean(), (currentFen, newFen, costFen, allowBelowCost, allowDeepCut) => {
        const r = floorRefusal({ currentFen, newFen, costFen, allowBelowCost, allowDeepCut });
        const below = costFen !== null && newFen < costFen && !allowBelowCost;
        const deep = newFen / currentFen < 0.1 && currentFen > 0 && !allowDeepCut;
        expect(r !== null).toBe(below || deep);
      }),
    );
  });
});
