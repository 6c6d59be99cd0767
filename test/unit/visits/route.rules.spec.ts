import fc from 'fast-check';
import { bestCycle, fillTo, lossFen, planRoute, stopsOf, weekdayOf, type RouteMachine, type RouteSlot } from '../../../src/visits/route.rules';
import { expectedShortage } from '../../../src/visits/shortage.rules';
import { stopReason } from '../../../src/visits/route-reasons.rules';
import { routePicks, totalsByGood } from '../../../src/visits/route-picks.rules';

const slot = (o: Partial<RouteSlot> = {}): RouteSlot => ({ slotId: 's', stock: 5, capacity: 20, ratePerDay: 2, sigmaDaily: Math.SQRT2, marginFen: 300, ...o });
const machine = (id: string, o: Partial<RouteMachine> = {}): RouteMachine => ({ id, name: id, site: id, stopCostFen: 3000, visitDays: [0, 1, 2, 3, 4, 5, 6], slots: [slot({ slotId: `${id}-a` })], ...o });
const SETTINGS = { stopsPerDay: 9, horizonDays: 7, maxCycleDays: 14, z: 1.65 };
// 2026-11-28 is a Saturday.
const DAY = '2026-11-28';

describe('expected shortage', () => {
  it('known answers: Poisson(1) beyond 0 is the mean; beyond 1 is e⁻¹; a large stock loses nothing', () => {
    expect(expectedShortage(0, 1, 1)).toBeCloseTo(1, 10);
    expect(expectedShortage(1, 1, 1)).toBeCloseTo(Math.exp(-1), 10);
    expect(expectedShortage(50, 1, 1)).toBeCloseTo(0, 10);
    expect(expectedShortage(3, 0, 0)).toBe(0);
  });

  it('a bursty slot (variance above the mean) loses more at the same mean and stock', () => {
    expect(expectedShortage(4, 2, 8)).toBeGreaterThan(expectedShortage(4, 2, 2));
  });

  it('the normal branch for large means agrees with the count branch near the switch', () => {
    expect(expectedShortage(55, 59.99, 59.99)).toBeCloseTo(expectedShortage(55, 60, 60), 1);
  });

  it('an empty slot loses its whole demand, also where the normal approximation serves (found by the property below)', () => {
    expect(expectedShortage(0, 60, 60 * 1.6418154268237142)).toBe(60);
    expect(expectedShortage(1, 60, 98)).toBeLessThanOrEqual(60);
  });

  it('property: between 0 and the mean, and never rising with stock', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.double({ min: 0.01, max: 120, noNaN: true }), fc.double({ min: 1, max: 4, noNaN: true }), (s, mean, k) => {
        const v = mean * k;
        const a = expectedShortage(s, mean, v);
        const b = expectedShortage(s + 1, mean, v);
        return a >= 0 && a <= mean + 1e-9 && b <= a + 1e-9;
      }),
    );
  });
});

describe('fill level and cycle', () => {
  it('fills to the demand until the next planned visit with safety, capped at capacity', () => {
    // 2 a day for 5 days: 10 + 1.65 · √(2 · 5) = 15.2 → 16.
    expect(fillTo({ stock: 3, capacity: 20, ratePerDay: 2, sigmaDaily: 1 }, 5, 1.65)).toBe(16);
    expect(fillTo({ stock: 3, capacity: 12, ratePerDay: 2, sigmaDaily: 1 }, 5, 1.65)).toBe(12);
    expect(fillTo({ stock: 3, capacity: null, ratePerDay: 0, sigmaDaily: 0 }, 5, 1.65)).toBe(3);
  });

  it('a dearer stop makes the best cycle longer; a small slot keeps it short', () => {
    const slots = [slot({ capacity: 30 })];
    expect(bestCycle(slots, 5000, 14, 1.65).days).toBeGreaterThanOrEqual(bestCycle(slots, 500, 14, 1.65).days);
    expect(bestCycle([slot({ capacity: 6, ratePerDay: 3 })], 500, 14, 1.65).days).toBeLessThanOrEqual(4);
    // A stop that costs more than the margin the machine can ever lose: never worth a short cycle.
    expect(bestCycle([slot({ capacity: 6, ratePerDay: 3, marginFen: 10 })], 5000, 14, 1.65).days).toBe(14);
  });
});

describe('the route', () => {
  it('a sold-out machine with a cheap stop is visited; a full one is not due, with its reasons in words', () => {
    const empty = machine('M-empty', { slots: [slot({ slotId: 'e', stock: 0 })] });
    const full = machine('M-full', { slots: [slot({ slotId: 'f', stock: 20 })] });
    const r = planRoute([full, empty], DAY, SETTINGS);
    expect(r.visit.map((s) => s.site)).toEqual(['M-empty']);
    expect(r.visit[0].decision).toBe('due');
    expect(r.skip.map((s) => [s.site, s.decision])).toEqual([['M-full', 'not_due']]);
    expect(stopReason(r.visit[0], DAY, 9)).toMatch(/^Skipping it until Sun 29 Nov would lose about ¥\d+\.\d\d of margin, more than the ¥\d+\.\d\d the wait would save \(a stop costs ¥30\.00/);
    expect(stopReason(r.skip[0], DAY, 9)).toMatch(/^Waiting until Sun 29 Nov loses about ¥0\.\d\d, less than the ¥\d+\.\d\d the wait saves .*; (due \w{3} \d+ \w{3}|not due within the week ahead)\.$/);
  });

  it('a stop whose goods are not in the warehouse is not visited today: nothing to bring', () => {
    const empty = machine('M', { slots: [slot({ stock: 0, bringToday: 0 })] });
    const r = planRoute([empty], DAY, SETTINGS);
    expect(r.visit).toEqual([]);
    expect(r.skip[0].decision).toBe('nothing_to_bring');
    expect(stopReason(r.skip[0], DAY, 9)).toMatch(/^A visit would pay \(about ¥\d+\.\d\d lost by Sun 29 Nov\), but the warehouse holds too little/);
    // With the goods there, the same machine is due.
    expect(planRoute([machine('M', { slots: [slot({ stock: 0, bringToday: 20 })] })], DAY, SETTINGS).visit[0].decision).toBe('due');
  });

  it('machines at one site are one stop with the higher stop cost and the days both allow', () => {
    const stops = stopsOf([machine('A', { site: 'Tower', stopCostFen: 2000, visitDays: [1, 3, 5] }), machine('B', { site: 'Tower', stopCostFen: 3000, visitDays: [3, 5, 6] })]);
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatchObject({ site: 'Tower', stopCostFen: 3000, visitDays: [3, 5] });
  });

  it('a machine that cannot be visited today is skipped as such, even when empty', () => {
    const m = machine('M', { slots: [slot({ stock: 0 })], visitDays: [1] }); // Mondays only
    const r = planRoute([m], DAY, SETTINGS);
    expect(r.visit).toEqual([]);
    expect(r.skip[0]).toMatchObject({ decision: 'not_a_visit_day', nextPossible: 2 });
  });

  it('a machine that can only be visited weekly is due sooner than one visitable every day', () => {
    const daily = planRoute([machine('D', { slots: [slot({ stock: 4 })] })], DAY, SETTINGS).skip[0];
    const weekly = planRoute([machine('W', { slots: [slot({ stock: 4 })], visitDays: [6] })], DAY, SETTINGS);
    expect(weekly.visit.map((s) => s.site)).toEqual(['W']);
    expect(daily?.decision).toBe('not_due');
  });

  it('capacity: the best stops first; the rest over capacity', () => {
    const ms = [0, 1, 2, 3].map((i) => machine(`M${i}`, { slots: [slot({ stock: 0, marginFen: 300 + i * 50 })] }));
    const r = planRoute(ms, DAY, { ...SETTINGS, stopsPerDay: 2 });
    expect(r.visit.map((s) => s.site)).toEqual(['M3', 'M2']);
    expect(r.skip.filter((s) => s.decision === 'over_capacity').map((s) => s.site).sort()).toEqual(['M0', 'M1']);
  });

  it('looking ahead: a day with more stops due than the drivers can make pulls some forward to today', () => {
    // Ten machines that run out in about two days; two stops a day: some must go today.
    const ms = Array.from({ length: 10 }, (_x, i) => machine(`M${i}`, { slots: [slot({ stock: 5, ratePerDay: 2 })], stopCostFen: 2000 }));
    const alone = planRoute(ms.slice(0, 1), DAY, { ...SETTINGS, stopsPerDay: 2 });
    expect(alone.visit).toEqual([]); // one machine alone is not due today
    const r = planRoute(ms, DAY, { ...SETTINGS, stopsPerDay: 2 });
    expect(r.visit).toHaveLength(2);
    expect(r.visit.every((s) => s.decision === 'pulled_forward')).toBe(true);
    expect(r.skip.filter((s) => s.decision === 'over_capacity').length).toBeGreaterThan(0);
    expect(stopReason(r.visit[0], DAY, 2)).toMatch(/^Not due until \w{3} \d+ \w{3}, when \d+ stops are due for 2: visiting today/);
  });

  it('property: never more stops than the capacity; every machine is either visited or skipped once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ stock: fc.integer({ min: 0, max: 30 }), rate: fc.double({ min: 0, max: 6, noNaN: true }), cost: fc.integer({ min: 0, max: 10_000 }), site: fc.integer({ min: 0, max: 5 }) }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 1, max: 6 }),
        (rows, cap) => {
          const ms = rows.map((r, i) => machine(`M${i}`, { site: `S${r.site}`, stopCostFen: r.cost, slots: [slot({ slotId: `M${i}-a`, stock: r.stock, ratePerDay: r.rate, sigmaDaily: Math.sqrt(r.rate) })] }));
          const plan = planRoute(ms, DAY, { ...SETTINGS, stopsPerDay: cap });
          const seen = [...plan.visit, ...plan.skip].flatMap((s) => s.machines.map((m) => m.id)).sort();
          return plan.visit.length <= cap && JSON.stringify(seen) === JSON.stringify(ms.map((m) => m.id).sort());
        },
      ),
      { numRuns: 150 },
    );
  });

  it('the loss grows with the days a machine waits', () => {
    const slots = [slot({ stock: 4 })];
    expect(lossFen(slots, 1)).toBeLessThan(lossFen(slots, 3));
    expect(lossFen(slots, 0)).toBe(0);
    expect(weekdayOf(DAY)).toBe(6);
  });
});

describe('the worked example of docs/replenishment-policy.md section 9', () => {
  const slots = [
    { slotId: 'A1', stock: 5, capacity: 24, ratePerDay: 6, sigmaDaily: 2.8, marginFen: 150 },
    { slotId: 'A2', stock: 2, capacity: 15, ratePerDay: 3, sigmaDaily: 2, marginFen: 200 },
    { slotId: 'A3', stock: 6, capacity: 10, ratePerDay: 1, sigmaDaily: 1.2, marginFen: 250 },
  ];
  const lobby = (s: RouteSlot[]) => machine('M', { stopCostFen: 4000, slots: s });

  it('best cycle 5 days at ¥10.69 a day; skipped today, due tomorrow; filled to capacity', () => {
    const full = (T: number) => lossFen(slots, T, (s) => s.capacity!);
    expect([4, 5, 6].map((T) => Math.round(full(T)))).toEqual([455, 1347, 2603]);
    const c = bestCycle(slots, 4000, 14, 1.65);
    expect(c.days).toBe(5);
    expect(Math.round(c.costPerDayFen)).toBe(1069);
    expect([1, 2].map((n) => Math.round(lossFen(slots, n)))).toEqual([510, 1868]);
    const today = planRoute([lobby(slots)], DAY, SETTINGS).skip[0];
    expect(today).toMatchObject({ decision: 'not_due', valueFen: -560, lostIfSkippedFen: 510, dueIn: 1 });
    expect(slots.map((s) => fillTo(s, 5, 1.65))).toEqual([24, 15, 10]);
    const fuller = slots.map((s, i) => ({ ...s, stock: [14, 9, 8][i] }));
    expect(planRoute([lobby(fuller)], DAY, SETTINGS).skip[0].dueIn).toBe(3);
  });
});

describe('what to bring', () => {
  it('picks only what the warehouse holds, in route order, and says what it lacks', () => {
    const slots = [
      { slotId: 'a', skuId: 'm:COLA', title: 'Cola', position: 'A1', stock: 2, capacity: 20, ratePerDay: 2, sigmaDaily: 1 },
      { slotId: 'b', skuId: 'm:TEA', title: 'Tea', position: 'A2', stock: 20, capacity: 20, ratePerDay: 1, sigmaDaily: 1 },
    ];
    const picks = routePicks(
      [
        { id: 'M1', cycleDays: 5, slots },
        { id: 'M2', cycleDays: 5, slots: [{ ...slots[0], slotId: 'c', stock: 0 }] },
      ],
      new Map([['m:COLA', 20]]),
      1.65,
    );
    // fill to 16: M1 needs 14, M2 16; the warehouse holds 20.
    expect(picks.get('M1')).toEqual([{ slotId: 'a', skuId: 'm:COLA', title: 'Cola', position: 'A1', stock: 2, fillTo: 16, units: 14, short: 0 }]);
    expect(picks.get('M2')![0]).toMatchObject({ units: 6, short: 10 });
    const all = [...picks.values()].flat();
    expect(totalsByGood(all, 'units')).toEqual([{ skuId: 'm:COLA', title: 'Cola', units: 20, slots: 2 }]);
    expect(totalsByGood(all, 'short')).toEqual([{ skuId: 'm:COLA', title: 'Cola', units: 10, slots: 1 }]);
  });
});
