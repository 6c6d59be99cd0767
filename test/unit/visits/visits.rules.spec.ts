import fc from 'fast-check';
import { assessMachine, coverDays, daysSince, depotOffers, fillOf, pickList, preKit, rankVisits, VISIT_RULES, type VisitMachineInput, type VisitSlotInput } from '../../../src/visits/visits.rules';

const NOW = new Date('2026-11-25T02:00:00Z');
const H = 3_600_000;
const slot = (id: string, stock: number, ratePerDay: number, capacity: number | null = 10): VisitSlotInput => ({ slotId: id, skuId: `m:${id}`, title: id, stock, capacity, ratePerDay, measured: true });
const machine = (o: Partial<VisitMachineInput> = {}): VisitMachineInput => ({
  id: 'M',
  name: 'M',
  slots: [slot('a', 8, 1), slot('b', 9, 1)],
  lastSyncedAt: new Date(NOW.getTime() - H),
  lastDeliveredAt: new Date(NOW.getTime() - 2 * 86_400_000),
  ...o,
});

describe('visit rules', () => {
  it('days of cover are stock over the demand rate; 0 when sold out; null when nothing sells', () => {
    expect(coverDays(6, 2)).toBe(3);
    expect(coverDays(1, 3)).toBe(0.33);
    expect(coverDays(0, 2)).toBe(0);
    expect(coverDays(-1, 0)).toBe(0);
    expect(coverDays(5, 0)).toBeNull();
  });

  it('fill counts only slots with a capacity and caps each slot at it', () => {
    expect(fillOf([{ stock: 5, capacity: 10 }, { stock: 50, capacity: 10 }, { stock: 7, capacity: null }])).toBe(75);
    expect(fillOf([{ stock: 3, capacity: null }])).toBeNull();
    expect(fillOf([{ stock: -2, capacity: 10 }, { stock: 1, capacity: 10 }])).toBe(5);
  });

  it('days since floors whole days and is null when unknown', () => {
    expect(daysSince(new Date(NOW.getTime() - 2.9 * 86_400_000), NOW)).toBe(2);
    expect(daysSince(null, NOW)).toBeNull();
  });

  it('a full, fresh, recently delivered machine with days of cover needs no visit', () => {
    const a = assessMachine(machine(), NOW);
    expect(a.needsVisit).toBe(false);
    expect(a.reasons).toEqual([]);
    expect(a.inputs).toEqual({ slots: 2, soldOutSlots: 0, lowCoverSlots: 0, minCoverDays: 8, fillPercent: 85, daysSinceDelivery: 2, dataAgeHours: 1 });
  });

  it('each signal alone makes a visit needed, with its reason in words', () => {
    const codes = (m: VisitMachineInput) => assessMachine(m, NOW).reasons.map((r) => r.code);
    expect(codes(machine({ slots: [slot('a', 0, 1), slot('b', 10, 1), slot('c', 10, 1)] }))).toEqual(['sold_out']);
    expect(codes(machine({ slots: [slot('a', 8, 1), slot('b', 9, 6)] }))).toEqual(['low_cover']);
    expect(codes(machine({ slots: [slot('a', 4, 0.1), slot('b', 4, 0.1)] }))).toEqual(['low_fill']);
    expect(codes(machine({ lastDeliveredAt: new Date(NOW.getTime() - VISIT_RULES.deliveryDueDays * 86_400_000) }))).toEqual(['delivery_due']);
    expect(codes(machine({ lastSyncedAt: new Date(NOW.getTime() - 9 * H) }))).toEqual(['data_stale']);
    expect(codes(machine({ lastSyncedAt: null }))).toEqual(['never_synced']);
    expect(assessMachine(machine({ slots: [slot('a', 0, 1), slot('b', 0, 1)] }), NOW).reasons[0].text).toBe('2 slots are sold out');
  });

  it('a sold-out slot outweighs a low one, which outweighs an emptier machine', () => {
    const soldOut = assessMachine(machine({ id: 'S', slots: [slot('a', 0, 1), slot('b', 9, 1)] }), NOW);
    const low = assessMachine(machine({ id: 'L', slots: [slot('a', 1, 1), slot('b', 9, 1)] }), NOW);
    const empty = assessMachine(machine({ id: 'E', slots: [slot('a', 3, 0.1), slot('b', 3, 0.1)] }), NOW);
    expect(rankVisits([empty, low, soldOut]).map((m) => m.id)).toEqual(['S', 'L', 'E']);
  });

  it('ranking: machines needing a visit come first whatever their score, then score, then id', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.string({ maxLength: 3 }), needsVisit: fc.boolean(), score: fc.integer({ min: 0, max: 50 }) }), { maxLength: 20 }), (list) => {
        const r = rankVisits(list);
        expect(r).toHaveLength(list.length);
        for (let i = 1; i < r.length; i++) {
          const [a, b] = [r[i - 1], r[i]];
          expect(Number(a.needsVisit) >= Number(b.needsVisit)).toBe(true);
          if (a.needsVisit === b.needsVisit) expect(a.score > b.score || (a.score === b.score && a.id <= b.id)).toBe(true);
        }
      }),
    );
  });

  it('the score never falls when a slot sells out or the data ages', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.double({ min: 0.01, max: 10, noNaN: true }), fc.integer({ min: 0, max: 48 }), (stock, rate, hours) => {
        const base = machine({ slots: [slot('a', stock, rate), slot('b', 5, 1)], lastSyncedAt: new Date(NOW.getTime() - hours * H) });
        const s0 = assessMachine(base, NOW).score;
        expect(assessMachine({ ...base, slots: [slot('a', 0, rate), slot('b', 5, 1)] }, NOW).score).toBeGreaterThanOrEqual(s0);
        expect(assessMachine({ ...base, lastSyncedAt: new Date(NOW.getTime() - (hours + 10) * H) }, NOW).score).toBeGreaterThanOrEqual(s0);
      }),
    );
  });

  it('the pick list takes the first offer per slot, else the plan with no origin, and leaves out slots that need nothing', () => {
    const needs = [
      { slotId: 'a', skuId: 'm:COLA', title: 'Cola', plannedUnits: 6 },
      { slotId: 'b', skuId: 'm:TEA', title: 'Tea', plannedUnits: 4 },
      { slotId: 'c', skuId: 'm:NUTS', title: 'Nuts', plannedUnits: 0 },
    ];
    const run = (id: string) => ({ kind: 'open_run' as const, runId: id, runStatus: 'placed' });
    const lines = pickList(needs, [
      { slotId: 'a', units: 5, origin: run('R1') },
      { slotId: 'a', units: 9, origin: run('R2') },
      { slotId: 'c', units: 0, origin: run('R3') },
    ]);
    expect(lines).toEqual([
      { slotId: 'a', skuId: 'm:COLA', title: 'Cola', units: 5, plannedUnits: 6, origin: run('R1') },
      { slotId: 'b', skuId: 'm:TEA', title: 'Tea', units: 4, plannedUnits: 4, origin: null },
    ]);
  });

  it('the depot offers what the plan serves from it; an open run of the same slot comes first (issue 25)', () => {
    const needs = [
      { slotId: 'a', skuId: 'm:COLA', title: 'Cola', plannedUnits: 0 },
      { slotId: 'b', skuId: 'm:TEA', title: 'Tea', plannedUnits: 0 },
      { slotId: 'c', skuId: 'm:NUTS', title: 'Nuts', plannedUnits: 3 },
    ];
    const depot = depotOffers([
      { slotId: 'a', fromDepot: 4 },
      { slotId: 'b', fromDepot: 2 },
      { slotId: 'c', fromDepot: 0 },
    ]);
    expect(depot).toEqual([
      { slotId: 'a', units: 4, origin: { kind: 'depot' } },
      { slotId: 'b', units: 2, origin: { kind: 'depot' } },
    ]);
    const run = { kind: 'open_run' as const, runId: 'R1', runStatus: 'placed' };
    expect(pickList(needs, [{ slotId: 'b', units: 6, origin: run }, ...depot])).toEqual([
      { slotId: 'a', skuId: 'm:COLA', title: 'Cola', units: 4, plannedUnits: 0, origin: { kind: 'depot' } },
      { slotId: 'b', skuId: 'm:TEA', title: 'Tea', units: 6, plannedUnits: 0, origin: run },
      { slotId: 'c', skuId: 'm:NUTS', title: 'Nuts', units: 3, plannedUnits: 3, origin: null },
    ]);
  });

  it('the pre-kit sums units per product, most first', () => {
    expect(
      preKit([
        { skuId: 'm:TEA', title: 'Tea', units: 2 },
        { skuId: 'm:COLA', title: 'Cola', units: 3 },
        { skuId: 'm:TEA', title: 'Tea', units: 4 },
      ]),
    ).toEqual([
      { skuId: 'm:TEA', title: 'Tea', units: 6, slots: 2 },
      { skuId: 'm:COLA', title: 'Cola', units: 3, slots: 1 },
    ]);
  });
});
