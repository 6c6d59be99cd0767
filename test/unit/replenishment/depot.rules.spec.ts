import fc from 'fast-check';
import { countDelta, fillRefusal, splitReceipt } from '../../../src/replenishment/depot/depot.rules';
import { applyPolicy, PolicyInput } from '../../../src/replenishment/plan/policy.rules';

describe('depot rules', () => {
  it('a receipt fills the slot up to its capacity and the rest, up to what the line ordered, goes to the depot', () => {
    expect(splitReceipt(0, 24, 20, 24)).toEqual({ stockAfter: 20, toDepot: 4, notBooked: 0 });
    expect(splitReceipt(18, 24, 20, 24)).toEqual({ stockAfter: 20, toDepot: 22, notBooked: 0 }); // needed 2, a box of 24 came
    expect(splitReceipt(5, 3, 20, 3)).toEqual({ stockAfter: 8, toDepot: 0, notBooked: 0 });
    expect(splitReceipt(25, 3, 20, 3)).toEqual({ stockAfter: 25, toDepot: 3, notBooked: 0 }); // never lowered by the cap
    expect(splitReceipt(-2, 3, 20, 3)).toEqual({ stockAfter: 3, toDepot: 0, notBooked: 0 });
  });

  it('issue 37: units beyond what the line ordered are booked nowhere; an unknown capacity takes at most the order', () => {
    // The review's receipt: 100,000 on a line that ordered 15, into a slot holding 3 of 12.
    expect(splitReceipt(3, 100_000, 12, 15)).toEqual({ stockAfter: 12, toDepot: 6, notBooked: 99_985 });
    // The slot had room for more than was ordered: it takes them (capped at capacity), the depot gets none.
    expect(splitReceipt(0, 10, 12, 5)).toEqual({ stockAfter: 10, toDepot: 0, notBooked: 0 });
    expect(splitReceipt(0, 30, 20, 16)).toEqual({ stockAfter: 20, toDepot: 0, notBooked: 10 });
    expect(splitReceipt(5, 30, null, 10)).toEqual({ stockAfter: 15, toDepot: 0, notBooked: 20 });
    expect(splitReceipt(5, 8, null, 10)).toEqual({ stockAfter: 13, toDepot: 0, notBooked: 0 });
  });

  it('property: no unit is lost, the slot never passes its capacity, the depot never gets more than was ordered', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 100 }),
        fc.integer({ min: 0, max: 200 }),
        fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
        fc.integer({ min: 0, max: 120 }),
        (stock, delivered, capacity, ordered) => {
          const { stockAfter, toDepot, notBooked } = splitReceipt(stock, delivered, capacity, ordered);
          expect(stockAfter + toDepot + notBooked).toBe(Math.max(0, stock) + delivered);
          expect(Math.min(toDepot, notBooked)).toBeGreaterThanOrEqual(0);
          expect(toDepot).toBeLessThanOrEqual(ordered);
          if (capacity !== null) expect(stockAfter).toBeLessThanOrEqual(Math.max(capacity, Math.max(0, stock)));
          else expect(stockAfter - Math.max(0, stock)).toBeLessThanOrEqual(ordered);
          if (delivered <= ordered) expect(notBooked).toBe(0);
        },
      ),
    );
  });

  it('the plan serves a slot from the depot before it buys; those units cost nothing', () => {
    const base: PolicyInput = { ratePerDay: 2, sigmaDaily: 1, leadTimeDays: 2, reviewPeriodDays: 7, z: 1.65, stock: 5, capacity: 30, product: { packSize: 12, packPriceFen: 4800, eachPriceFen: 450 } };
    // Target 23, stock 5: need 18.
    expect(applyPolicy({ ...base, depotAvailable: 20 })).toMatchObject({ fromDepot: 18, quantityEach: 0, quantity: 0, costEstimateFen: 0 });
    expect(applyPolicy({ ...base, depotAvailable: 10 })).toMatchObject({ fromDepot: 10, quantityEach: 8, quantity: 1, costEstimateFen: 4800 });
    expect(applyPolicy({ ...base, onOrder: 10, depotAvailable: 10 })).toMatchObject({ fromDepot: 8, quantityEach: 0 });
  });

  it('a full slot takes nothing from the depot now, and what the depot holds for it is not bought (the room rule)', () => {
    // Capacity 10, stock 10, 2 a day over a 2-day lead time: the room rule lets the target reach 14, need 4.
    const full: PolicyInput = { ratePerDay: 2, sigmaDaily: 0, leadTimeDays: 2, reviewPeriodDays: 7, z: 0, stock: 10, capacity: 10, product: { packSize: 24, packPriceFen: 4800, eachPriceFen: 200 } };
    expect(applyPolicy({ ...full, depotAvailable: 5 })).toMatchObject({ target: 14, fromDepot: 0, depotHeld: 4, quantityEach: 0, quantity: 0 });
    expect(applyPolicy({ ...full, stock: 8, depotAvailable: 5 })).toMatchObject({ fromDepot: 2, depotHeld: 3, quantityEach: 1, quantity: 1 });
  });

  it('property: the plan never fills a slot past its capacity from the depot, and never buys what the depot holds for it', () => {
    fc.assert(
      fc.property(
        fc.record({ rate: fc.double({ min: 0, max: 10, noNaN: true }), lead: fc.integer({ min: 1, max: 7 }), stock: fc.integer({ min: 0, max: 40 }), capacity: fc.integer({ min: 1, max: 40 }), depot: fc.integer({ min: 0, max: 60 }) }),
        ({ rate, lead, stock, capacity, depot }) => {
          const p = applyPolicy({ ratePerDay: rate, sigmaDaily: 0.5, leadTimeDays: lead, reviewPeriodDays: 2, z: 1.65, stock, capacity, depotAvailable: depot, product: null });
          expect(stock + p.fromDepot).toBeLessThanOrEqual(Math.max(stock, capacity));
          expect(p.fromDepot + p.depotHeld).toBeLessThanOrEqual(depot);
          if (p.quantityEach > 0) expect(p.fromDepot + p.depotHeld).toBe(depot); // buys only once the depot's units are spoken for
          expect(p.fromDepot + p.depotHeld + p.quantityEach).toBe(Math.max(0, p.target - stock));
        },
      ),
    );
  });

  it('a fill is refused when the depot lacks the units or the slot has no room', () => {
    expect(fillRefusal({ quantity: 5, stock: 10, capacity: 20, depotHas: 5 })).toBeNull();
    expect(fillRefusal({ quantity: 6, stock: 10, capacity: 20, depotHas: 5 })?.code).toBe('depot_insufficient');
    expect(fillRefusal({ quantity: 5, stock: 16, capacity: 20, depotHas: 9 })).toEqual({ code: 'invalid', text: 'the slot holds 16 of 20: it takes at most 4 more' });
    expect(fillRefusal({ quantity: 50, stock: 16, capacity: null, depotHas: 50 })).toBeNull();
  });

  it('a count replaces what was held; the delta is recorded', () => {
    expect(countDelta(7, 4)).toBe(-3);
    expect(countDelta(0, 4)).toBe(4);
  });
});
