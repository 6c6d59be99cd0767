import fc from 'fast-check';
import { LaterOrder, onOrderBySlot, RunLineOrderRow, supersedingRuns } from '../../../src/replenishment/plan/inventory-position.rules';
import { applyPolicy } from '../../../src/replenishment/plan/policy.rules';

/**
 * Issue 25: for random interleavings of plan, run, place, receive (short or in full), cancel, close and sync, what a
 * placed run orders for a slot never exceeds target − stock − on order at the moment it is placed. The model keeps
 * the service's own rules: the plan is `applyPolicy` on the position of `onOrderBySlot`, and place refuses a draft
 * that `supersedingRuns` names stale (409 run_superseded), as RunPlacingService does.
 */

interface Slot {
  id: string;
  capacity: number;
  stock: number;
  rate: number;
  sigma: number;
  pack: number;
}

interface Line {
  slot_id: string;
  quantity_each: number;
  ordered_each: number;
  closed: boolean;
}

interface Run {
  id: string;
  status: 'ready' | 'placed' | 'delivered' | 'cancelled' | 'closed';
  drafted: number;
  claimed: number | null;
  receivedAny: boolean;
  lines: Line[];
}

type Command =
  | { kind: 'plan' }
  | { kind: 'run' }
  | { kind: 'place'; pick: number }
  | { kind: 'receive'; pick: number; line: number; short: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'close'; pick: number }
  | { kind: 'sync'; sales: number[] };

const LEAD = 2;
const REVIEW = 1;

function rows(runs: Run[]): RunLineOrderRow[] {
  return runs.flatMap((r) => r.lines.map((l) => ({ run_id: r.id, status: r.status, slot_id: l.slot_id, ordered_each: l.ordered_each, closed: l.closed, po_completed: false })));
}

function planLine(s: Slot, onOrder: number) {
  return applyPolicy({
    ratePerDay: s.rate,
    sigmaDaily: s.sigma,
    leadTimeDays: LEAD,
    reviewPeriodDays: REVIEW,
    z: 1.65,
    stock: s.stock,
    onOrder,
    capacity: s.capacity,
    product: { packSize: s.pack, packPriceFen: 100 * s.pack, eachPriceFen: 100 },
  });
}

const slotArb = fc.record({
  capacity: fc.integer({ min: 4, max: 30 }),
  stock: fc.integer({ min: 0, max: 30 }),
  rate: fc.double({ min: 0, max: 6, noNaN: true }),
  sigma: fc.double({ min: 0, max: 3, noNaN: true }),
  pack: fc.constantFrom(1, 6, 12, 24),
});

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  fc.constant({ kind: 'plan' as const }),
  fc.constant({ kind: 'run' as const }),
  fc.record({ kind: fc.constant('place' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('receive' as const), pick: fc.nat(), line: fc.nat(), short: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('close' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('sync' as const), sales: fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 3, maxLength: 3 }) }),
);

/** Runs the commands; answers the violations found (an empty list when the invariant held throughout). */
function replay(initial: Omit<Slot, 'id'>[], commands: Command[], opts = { refuseStale: true, countOnOrder: true }): string[] {
  const slots: Slot[] = initial.map((s, i) => ({ ...s, id: `L1-SKU-${i}`, stock: Math.min(s.stock, s.capacity) }));
  const runs: Run[] = [];
  const violations: string[] = [];
  const onOrder = (except?: string) => onOrderBySlot(rows(runs.filter((r) => r.id !== except)));
  // What the planner counts (the service's rule; the second test turns it off to see the check fail).
  const plannerOnOrder = () => (opts.countOnOrder ? onOrder() : new Map<string, { units: number }>());
  const pick = <T>(xs: T[], n: number): T | undefined => (xs.length ? xs[n % xs.length] : undefined);
  commands.forEach((c, tick) => {
    switch (c.kind) {
      case 'plan': {
        const oo = onOrder();
        for (const s of slots) {
          const p = planLine(s, oo.get(s.id)?.units ?? 0);
          if (p.quantityEach > Math.max(0, p.target - s.stock - (oo.get(s.id)?.units ?? 0))) violations.push(`plan ${s.id} at ${tick}`);
        }
        break;
      }
      case 'run': {
        const oo = plannerOnOrder();
        const lines = slots
          .map((s) => ({ s, p: planLine(s, oo.get(s.id)?.units ?? 0) }))
          .filter(({ p }) => p.quantityEach > 0)
          .map(({ s, p }) => ({ slot_id: s.id, quantity_each: p.quantityEach, ordered_each: p.orderedEach, closed: false }));
        if (lines.length) runs.push({ id: `run-${tick}`, status: 'ready', drafted: tick, claimed: null, receivedAny: false, lines });
        break;
      }
      case 'place': {
        const run = pick(runs.filter((r) => r.status === 'ready'), c.pick);
        if (!run) break;
        const later: LaterOrder[] = runs
          .filter((r) => r.id !== run.id && r.claimed !== null && r.claimed > run.drafted)
          .map((r) => ({ id: r.id, status: r.status, slot_ids: r.lines.map((l) => l.slot_id), received_any: r.receivedAny, po_completed: false }));
        if (opts.refuseStale && supersedingRuns(run.lines.map((l) => l.slot_id), later).length) break; // 409 run_superseded: nothing sent
        const oo = onOrder(run.id);
        for (const l of run.lines) {
          const s = slots.find((x) => x.id === l.slot_id)!;
          const p = planLine(s, oo.get(s.id)?.units ?? 0);
          const room = Math.max(0, p.target - s.stock - (oo.get(s.id)?.units ?? 0));
          if (l.quantity_each > room) violations.push(`${run.id} orders ${l.quantity_each} for ${s.id} with room ${room} at ${tick}`);
        }
        run.status = 'placed';
        run.claimed = tick;
        break;
      }
      case 'receive': {
        const run = pick(runs.filter((r) => r.status === 'placed'), c.pick);
        const line = run && pick(run.lines.filter((l) => !l.closed), c.line);
        if (!run || !line) break;
        const s = slots.find((x) => x.id === line.slot_id)!;
        const arrived = Math.max(0, line.ordered_each - c.short);
        s.stock += Math.min(arrived, s.capacity - s.stock); // the rest is not on the shelf (the depot)
        line.closed = true;
        run.receivedAny ||= arrived > 0;
        if (run.lines.every((l) => l.closed)) run.status = 'delivered';
        break;
      }
      case 'cancel': {
        const run = pick(runs.filter((r) => r.status === 'ready'), c.pick);
        if (run) run.status = 'cancelled';
        break;
      }
      case 'close': {
        const run = pick(runs.filter((r) => r.status === 'placed'), c.pick);
        if (!run) break;
        run.lines.forEach((l) => (l.closed = true));
        run.status = 'closed';
        break;
      }
      case 'sync':
        slots.forEach((s, i) => (s.stock = Math.max(0, s.stock - c.sales[i])));
        break;
    }
  });
  return violations;
}

describe('no slot is ordered twice (property)', () => {
  it('a placed run never orders more for a slot than target − stock − on order', () => {
    fc.assert(
      fc.property(fc.array(slotArb, { minLength: 3, maxLength: 3 }), fc.array(commandArb, { minLength: 1, maxLength: 60 }), (slots, commands) => {
        expect(replay(slots, commands)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('the check can fail: without the stale-draft refusal, or without on order, a slot is ordered twice', () => {
    const slots = [{ capacity: 20, stock: 0, rate: 3, sigma: 1, pack: 1 }, { capacity: 20, stock: 20, rate: 0, sigma: 0, pack: 1 }, { capacity: 20, stock: 20, rate: 0, sigma: 0, pack: 1 }];
    const twoDrafts: Command[] = [{ kind: 'run' }, { kind: 'run' }, { kind: 'place', pick: 0 }, { kind: 'place', pick: 0 }];
    const draftAfterPlace: Command[] = [{ kind: 'run' }, { kind: 'place', pick: 0 }, { kind: 'run' }, { kind: 'place', pick: 0 }];
    // With the service's rules: the second draft is refused as superseded; a later draft counts the first as on order.
    expect(replay(slots, twoDrafts)).toEqual([]);
    expect(replay(slots, draftAfterPlace)).toEqual([]);
    expect(replay(slots, twoDrafts, { refuseStale: false, countOnOrder: true })).toHaveLength(1);
    expect(replay(slots, draftAfterPlace, { refuseStale: true, countOnOrder: false })).toHaveLength(1);
  });
});
