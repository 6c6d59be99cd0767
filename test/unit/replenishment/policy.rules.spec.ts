import { applyPolicy, PolicyInput } from '../../../src/replenishment/plan/policy.rules';

// d = 2/day, σ = 1, L = 2 days, R = 7 days, z = 1.65:
//   P = 9; safety = 1.65 × 1 × 3 = 4.95; S = ceil(18 + 4.95) = 23; s = ceil(4 + 1.65 × √2 = 6.333) = 7.
const base: PolicyInput = {
  ratePerDay: 2,
  sigmaDaily: 1,
  leadTimeDays: 2,
  reviewPeriodDays: 7,
  z: 1.65,
  stock: 5,
  capacity: 30,
  product: { packSize: 12, packPriceFen: 4800, eachPriceFen: 450 },
};

describe('order-up-to policy (known answers)', () => {
  it('computes safety stock, reorder point, target, and rounds the need up to whole boxes', () => {
    expect(applyPolicy(base)).toEqual({
      safetyStock: 4.95,
      reorderPoint: 7,
      target: 23,
      cappedAtCapacity: false,
      fromDepot: 0,
      depotHeld: 0,
      depotIncoming: 0,
      quantityEach: 18,
      unit: 'BX',
      contains: 12,
      quantity: 2,
      orderedEach: 24,
      costEstimateFen: 9600,
      unitPriceFen: 4800,
    });
  });

  it('caps the target at what the slot can take when the order arrives: capacity plus the lead time demand', () => {
    // Room C = 16 + ceil(2 × 2) = 20 < 23: an order placed now arrives after about 4 units sold.
    const p = applyPolicy({ ...base, capacity: 16 });
    expect(p).toMatchObject({ target: 20, cappedAtCapacity: true, quantityEach: 15, quantity: 2, costEstimateFen: 9600 });
    // Issue 25: capping at the capacity alone left a slot whose lead time demand nearly fills it always short.
    expect(applyPolicy({ ...base, capacity: 8, ratePerDay: 3, sigmaDaily: 0, leadTimeDays: 3, stock: 2 })).toMatchObject({ target: 17, quantityEach: 15 });
    // Room applies to the inventory position: what is on order counts against it.
    expect(applyPolicy({ ...base, capacity: 16, onOrder: 10 })).toMatchObject({ target: 20, quantityEach: 5 });
  });

  it('orders each when the supplier sells by the piece, at the each price', () => {
    expect(applyPolicy({ ...base, product: { packSize: 1, packPriceFen: 450, eachPriceFen: 450 } })).toMatchObject({
      unit: 'EA',
      contains: 1,
      quantity: 18,
      costEstimateFen: 8100,
    });
  });

  it('has no cost when the fulfiller does not carry the good', () => {
    expect(applyPolicy({ ...base, product: null })).toMatchObject({ unit: 'EA', quantity: 18, costEstimateFen: null, unitPriceFen: null });
  });

  it('orders nothing at or above the target, and ignores an unknown capacity', () => {
    expect(applyPolicy({ ...base, stock: 25 })).toMatchObject({ quantityEach: 0, quantity: 0, costEstimateFen: 0 });
    expect(applyPolicy({ ...base, capacity: null, ratePerDay: 10, sigmaDaily: 0 })).toMatchObject({ target: 90, quantityEach: 85 });
  });

  it('longer lead time raises the target (more days to protect)', () => {
    expect(applyPolicy({ ...base, leadTimeDays: 5, capacity: null }).target).toBe(Math.ceil(2 * 12 + 1.65 * Math.sqrt(12)));
  });
});

describe('lead-time spread and depot remainders on their way (issue 25)', () => {
  it('adds the lead time spread to the safety stock: SS = z·√(P·σ² + d²·σ_L²)', () => {
    // d = 2, σ = 1, P = 9, σ_L = 1.5: SS = 1.65 × √(9 + 9) = 7.0004; S = ceil(18 + 7.0004) = 26;
    // s = ceil(4 + 1.65 × √(2 + 9) = 9.4724) = 10.
    const p = applyPolicy({ ...base, leadTimeSigmaDays: 1.5 });
    expect(p).toMatchObject({ safetyStock: 7, target: 26, reorderPoint: 10, quantityEach: 21 });
    // σ_L = 0 (or absent) is the certain lead time of before.
    expect(applyPolicy({ ...base, leadTimeSigmaDays: 0 })).toEqual(applyPolicy(base));
  });

  it('serves the need from units on their way to the depot after the depot itself, and buys only the rest', () => {
    // need 18: 5 in the depot, 10 coming, 3 bought (one box of 12).
    const p = applyPolicy({ ...base, depotAvailable: 5, depotIncoming: 10 });
    expect(p).toMatchObject({ fromDepot: 5, depotHeld: 0, depotIncoming: 10, quantityEach: 3, quantity: 1, orderedEach: 12 });
    // More coming than needed: nothing bought, only the need is claimed.
    expect(applyPolicy({ ...base, depotIncoming: 40 })).toMatchObject({ depotIncoming: 18, quantityEach: 0, quantity: 0 });
  });
});
