import fc from 'fast-check';
import {
  allLinesClosed,
  closeOpenLines,
  coverOrder,
  expectedToDepot,
  lineOnOrder,
  onOrderBySlot,
  receiptOf,
  RunLineOrderRow,
  supersedingRuns,
} from '../../../src/replenishment/plan/inventory-position.rules';
import { applyPolicy, PolicyInput } from '../../../src/replenishment/plan/policy.rules';

const row = (o: Partial<RunLineOrderRow>): RunLineOrderRow => ({
  run_id: 'run-1',
  status: 'placed',
  slot_id: 's1',
  ordered_each: 24,
  closed: false,
  po_completed: false,
  ...o,
});

describe('inventory position: what is on order', () => {
  it('counts open lines of placing and placed runs, and of a completed purchase order of a run not placed', () => {
    expect(lineOnOrder(row({}))).toBe(24);
    expect(lineOnOrder(row({ status: 'placing' }))).toBe(24);
    expect(lineOnOrder(row({ status: 'ready' }))).toBe(0);
    expect(lineOnOrder(row({ status: 'ready', po_completed: true }))).toBe(24);
    expect(lineOnOrder(row({ status: 'awaiting_approval', po_completed: true }))).toBe(24);
    expect(lineOnOrder(row({ closed: true }))).toBe(0);
    expect(lineOnOrder(row({ status: 'delivered' }))).toBe(0);
    expect(lineOnOrder(row({ status: 'closed' }))).toBe(0);
  });

  it('sums per slot and names each run once', () => {
    const m = onOrderBySlot([
      row({ run_id: 'run-a', slot_id: 's1', ordered_each: 5 }),
      row({ run_id: 'run-b', slot_id: 's1', ordered_each: 7, status: 'placing' }),
      row({ run_id: 'run-b', slot_id: 's2', ordered_each: 3, closed: true }),
      row({ run_id: 'run-c', slot_id: 's2', ordered_each: 4, status: 'ready' }),
    ]);
    expect(m.get('s1')).toEqual({ units: 12, runs: [{ id: 'run-a', status: 'placed', units: 5 }, { id: 'run-b', status: 'placing', units: 7 }] });
    expect(m.has('s2')).toBe(false);
  });

  it('the policy orders up to the target from stock plus on order', () => {
    const base: PolicyInput = { ratePerDay: 2, sigmaDaily: 1, leadTimeDays: 2, reviewPeriodDays: 7, z: 1.65, stock: 5, capacity: 30, product: null };
    expect(applyPolicy(base).quantityEach).toBe(18); // target 23
    expect(applyPolicy({ ...base, onOrder: 10 }).quantityEach).toBe(8);
    expect(applyPolicy({ ...base, onOrder: 18 }).quantityEach).toBe(0);
    expect(applyPolicy({ ...base, onOrder: 40 }).quantityEach).toBe(0);
  });

  it('property: what is ordered never exceeds target − stock − on order, and stock + on order + order reaches the target', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 50, noNaN: true }),
        fc.double({ min: 0, max: 5, noNaN: true }),
        fc.integer({ min: -3, max: 80 }),
        fc.integer({ min: 0, max: 80 }),
        fc.option(fc.integer({ min: 1, max: 60 }), { nil: null }),
        (rate, sigma, stock, onOrder, capacity) => {
          const p = applyPolicy({ ratePerDay: rate, sigmaDaily: sigma, leadTimeDays: 2, reviewPeriodDays: 7, z: 1.65, stock, onOrder, capacity, product: null });
          expect(p.quantityEach).toBeLessThanOrEqual(Math.max(0, p.target - Math.max(0, stock) - onOrder));
          expect(Math.max(0, stock) + onOrder + p.quantityEach).toBeGreaterThanOrEqual(p.target);
        },
      ),
    );
  });
});

describe('a drafted run made stale by a later order', () => {
  const later = (o: Partial<Parameters<typeof supersedingRuns>[1][number]>) => ({
    id: 'run-b',
    status: 'placed',
    slot_ids: ['s1'],
    received_any: false,
    po_completed: false,
    ...o,
  });

  it('names the runs that ordered for one of its slots', () => {
    expect(supersedingRuns(['s1', 's2'], [later({}), later({ id: 'run-a', status: 'delivered', slot_ids: ['s2'] })])).toEqual(['run-a', 'run-b']);
    expect(supersedingRuns(['s1'], [later({ status: 'placing' })])).toEqual(['run-b']);
  });

  it('ignores other slots, runs that ordered nothing that lasts, and closed runs that delivered nothing', () => {
    expect(supersedingRuns(['s2'], [later({})])).toEqual([]);
    expect(supersedingRuns(['s1'], [later({ status: 'ready' }), later({ status: 'rejected' })])).toEqual([]);
    expect(supersedingRuns(['s1'], [later({ status: 'closed' })])).toEqual([]);
    expect(supersedingRuns(['s1'], [later({ status: 'closed', received_any: true })])).toEqual(['run-b']);
    expect(supersedingRuns(['s1'], [later({ status: 'ready', po_completed: true })])).toEqual(['run-b']);
  });
});

describe('receipts line by line', () => {
  it('a short delivery closes the line with its shortfall; an over-delivery has none', () => {
    expect(receiptOf('s1', 24, 20)).toEqual({ slot_id: 's1', quantity: 20, ordered_each: 24, shortfall: 4 });
    expect(receiptOf('s1', 24, 30)).toEqual({ slot_id: 's1', quantity: 30, ordered_each: 24, shortfall: 0 });
  });

  it('closing a run closes only the open lines, with their whole quantity as shortfall', () => {
    const lines = [{ slot_id: 's1', ordered_each: 5 }, { slot_id: 's2', ordered_each: 7 }];
    expect(closeOpenLines(lines, new Set(['s1']))).toEqual([{ slot_id: 's2', quantity: 0, ordered_each: 7, shortfall: 7, closed: true }]);
    expect(allLinesClosed(lines, new Set(['s1']))).toBe(false);
    expect(allLinesClosed(lines, new Set(['s1', 's2']))).toBe(true);
  });
});

describe('box remainders on their way to the depot (issue 25)', () => {
  const slots = new Map([
    ['s1', { stock: 2, capacity: 10, ratePerDay: 1 }],
    ['s2', { stock: 0, capacity: 8, ratePerDay: 0 }],
  ]);
  it('counts what is beyond the line slot need and beyond its room at receipt', () => {
    // s1: room at receipt 10 − (2 − 1 × 2) = 10; 24 ordered for a need of 6: 14 beyond its room, 18 beyond its need.
    expect(expectedToDepot([row({ sku_id: 'g', quantity_each: 6 })], slots, 2)).toEqual(new Map([['g', 14]]));
    // s2: need 12 > room 8 (the room rule): its own 4 wait for it, only the box remainder (12) is for others.
    expect(expectedToDepot([row({ slot_id: 's2', sku_id: 'g', quantity_each: 12 })], slots, 2)).toEqual(new Map([['g', 12]]));
    // Two open lines of one slot share its room; closed lines, unknown slots and lines without a good count nothing.
    const two = [row({ sku_id: 'g', ordered_each: 8, quantity_each: 4 }), row({ run_id: 'run-2', sku_id: 'g', ordered_each: 8, quantity_each: 4 })];
    expect(expectedToDepot(two, slots, 2)).toEqual(new Map([['g', 4]]));
    expect(expectedToDepot([row({ sku_id: 'g', closed: true }), row({ slot_id: 'sx', sku_id: 'g' }), row({})], slots, 2)).toEqual(new Map());
  });

  it('never counts more than the units beyond the lines own needs (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ slot: fc.constantFrom('s1', 's2'), ordered: fc.integer({ min: 0, max: 48 }), need: fc.integer({ min: 0, max: 48 }) }), { maxLength: 6 }),
        fc.double({ min: 0, max: 6, noNaN: true }),
        (ls, lead) => {
          const rows = ls.map((l, i) => row({ run_id: `r${i}`, slot_id: l.slot, sku_id: 'g', ordered_each: l.ordered, quantity_each: Math.min(l.need, l.ordered) }));
          const beyond = rows.reduce((t, r) => t + (r.ordered_each - (r.quantity_each ?? 0)), 0);
          const got = expectedToDepot(rows, slots, lead).get('g') ?? 0;
          return got >= 0 && got <= beyond && Number.isInteger(got);
        },
      ),
    );
  });
});

describe('depot service order (issue 25)', () => {
  it('serves the slots with the fewest days of cover on their position first; idle slots last; ties in order', () => {
    const order = coverOrder([
      { stock: 10, onOrder: 0, ratePerDay: 1 }, // 10 days
      { stock: 1, onOrder: 1, ratePerDay: 2 }, // 1 day
      { stock: 0, onOrder: 0, ratePerDay: 0 }, // sells nothing
      { stock: 4, onOrder: 0, ratePerDay: 4 }, // 1 day (tie: after index 1)
      { stock: 3, onOrder: 0, ratePerDay: 1 }, // 3 days
    ]);
    expect(order).toEqual([1, 3, 4, 0, 2]);
  });
});
