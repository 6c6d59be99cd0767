/**
 * Issue 25, item 6: model-based property test THROUGH THE SERVICE. fast-check draws random interleavings of plan,
 * run, place, receive, cancel, close and sync (with the service clock moved, so the staging machines sell) and
 * drives the real HTTP API in process, on PostgreSQL and on the embedded database. The model keeps its own books of
 * what is on order (every unit of a placed run's open lines) and checks after each step:
 *  - what a run orders for a slot never exceeds target − stock − on order (the model's on order, not the service's);
 *  - the plan shows the model's on order per slot, and buys exactly what the position lacks beyond the depot;
 *  - a run drafted before another run ordered one of its slots is refused (409 `run_superseded`), and only then.
 * Few runs, short sequences: the suite stays under about a minute per database.
 *
 * Run on PostgreSQL by replenishment-no-double-order.model.e2e-spec.ts and on the embedded database by
 * replenishment-no-double-order-embedded.model.e2e-spec.ts (a file each stays under 20 s).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { setGuards } from '../support/replenishment-demand';
import { startTestApp, TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

const LOC = 'sim-loc-01';
type Json = Record<string, any>;

interface ModelRun {
  id: string;
  status: 'ready' | 'placed' | 'cancelled' | 'closed' | 'delivered';
  /** Model step at which the run was drafted, and at which it was placed. */
  drafted: number;
  placedAt: number | null;
  lines: { slot_id: string; ordered_each: number; open: boolean }[];
  receivedAny: boolean;
}

class Model {
  step = 0;
  runs: ModelRun[] = [];
  onOrder(slot: string, except?: string): number {
    let u = 0;
    for (const r of this.runs) if (r.status === 'placed' && r.id !== except) for (const l of r.lines) if (l.open && l.slot_id === slot) u += l.ordered_each;
    return u;
  }
  /** Runs that ordered one of `run`'s slots after it was drafted (what makes its place a 409). */
  superseding(run: ModelRun): string[] {
    const mine = new Set(run.lines.map((l) => l.slot_id));
    return this.runs
      .filter((o) => o.id !== run.id && o.placedAt !== null && o.placedAt > run.drafted)
      .filter((o) => o.status === 'placed' || o.status === 'delivered' || (o.status === 'closed' && o.receivedAny))
      .filter((o) => o.lines.some((l) => mine.has(l.slot_id)))
      .map((o) => o.id);
  }
}

interface Real {
  t: TestApp;
}

type Cmd = fc.AsyncCommand<Model, Real>;

const key = () => ({ 'Idempotency-Key': randomUUID() });
const post = (t: TestApp, path: string, body?: unknown) => {
  const req = t.post(path, body);
  for (const [k, v] of Object.entries(key())) req.set(k, v);
  return req;
};

class PlanCmd implements Cmd {
  check = () => true;
  async run(m: Model, { t }: Real) {
    const plan = (await t.get(`/ucp/v1/replenishment/plan?location=${LOC}`).expect(200)).body as Json;
    for (const s of plan.slots as Json[]) {
      const onOrder = m.onOrder(s.slot_id);
      expect({ slot: s.slot_id, on_order: s.on_order }).toEqual({ slot: s.slot_id, on_order: onOrder });
      const lacking = Math.max(0, s.target - s.stock - onOrder);
      expect(s.quantity_each).toBeLessThanOrEqual(lacking);
      expect(s.quantity_each + s.from_depot + s.depot_held + s.depot_incoming).toBe(lacking);
    }
  }
  toString = () => 'plan';
}

class CreateRunCmd implements Cmd {
  check = () => true;
  async run(m: Model, { t }: Real) {
    const run = (await t.post(`/ucp/v1/replenishment/runs?location=${LOC}`).expect(201)).body as Json;
    m.step++;
    for (const l of run.lines as Json[]) {
      // What the run orders for the slot never exceeds what the slot lacks on the model's books.
      expect(l.quantity_each).toBeLessThanOrEqual(Math.max(0, l.target - l.stock_at_plan - m.onOrder(l.slot_id)));
    }
    if (!run.lines.length) return;
    expect(run.status).toBe('ready');
    m.runs.push({ id: run.id, status: 'ready', drafted: m.step, placedAt: null, receivedAny: false, lines: (run.lines as Json[]).map((l) => ({ slot_id: l.slot_id, ordered_each: l.ordered_each, open: true })) });
  }
  toString = () => 'run';
}

class PlaceCmd implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.runs.some((r) => r.status === 'ready');
  async run(m: Model, { t }: Real) {
    const ready = m.runs.filter((r) => r.status === 'ready');
    const run = ready[this.pick % ready.length];
    const res = await post(t, `/ucp/v1/replenishment/runs/${run.id}/place`);
    m.step++;
    const superseding = m.superseding(run);
    if (superseding.length) {
      expect({ status: res.status, code: res.body.messages?.[0]?.code }).toEqual({ status: 409, code: 'run_superseded' });
      return;
    }
    expect({ status: res.status, body: res.status === 200 ? res.body.status : res.body.messages }).toEqual({ status: 200, body: 'placed' });
    run.status = 'placed';
    run.placedAt = m.step;
  }
  toString = () => `place(${this.pick})`;
}

class ReceiveCmd implements Cmd {
  constructor(
    readonly pick: number,
    readonly lines: number,
    readonly share: number,
  ) {}
  check = (m: Readonly<Model>) => m.runs.some((r) => r.status === 'placed');
  async run(m: Model, { t }: Real) {
    const placed = m.runs.filter((r) => r.status === 'placed');
    const run = placed[this.pick % placed.length];
    const open = run.lines.filter((l) => l.open).slice(0, this.lines);
    const delivered = open.map((l) => ({ slot_id: l.slot_id, quantity: Math.floor(l.ordered_each * this.share) }));
    const res = await post(t, `/ucp/v1/replenishment/runs/${run.id}/receive`, { delivered }).expect(200);
    // One receive ends the run: the lines it does not list close short (docs/contract/states.md, Lines), so none of
    // this run's units is on order any more.
    expect(res.body.status).toBe('delivered');
    for (const l of run.lines) l.open = false;
    if (delivered.some((d) => d.quantity > 0)) run.receivedAny = true;
    run.status = 'delivered';
  }
  toString = () => `receive(${this.pick}, ${this.lines} line(s), ${this.share})`;
}

class CancelCmd implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.runs.some((r) => r.status === 'ready');
  async run(m: Model, { t }: Real) {
    const ready = m.runs.filter((r) => r.status === 'ready');
    const run = ready[this.pick % ready.length];
    await post(t, `/ucp/v1/replenishment/runs/${run.id}/cancel`, { reason: 'model test', confirm: true }).expect(200);
    run.status = 'cancelled';
  }
  toString = () => `cancel(${this.pick})`;
}

class CloseCmd implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.runs.some((r) => r.status === 'placed');
  async run(m: Model, { t }: Real) {
    const placed = m.runs.filter((r) => r.status === 'placed');
    const run = placed[this.pick % placed.length];
    await post(t, `/ucp/v1/replenishment/runs/${run.id}/close`, { reason: 'lost in transit (model test)', confirm: true }).expect(200);
    for (const l of run.lines) l.open = false;
    run.status = 'closed';
  }
  toString = () => `close(${this.pick})`;
}

class SyncCmd implements Cmd {
  constructor(readonly hours: number) {}
  check = () => true;
  async run(_m: Model, { t }: Real) {
    if (this.hours > 0) await t.post('/ucp/v1/admin/clock/advance', { seconds: this.hours * 3600 }).expect(200);
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
  }
  toString = () => `sync(+${this.hours} h)`;
}

const commands = [
  fc.constant(new PlanCmd()),
  fc.constant(new CreateRunCmd()),
  fc.nat(5).map((i) => new PlaceCmd(i)),
  fc.tuple(fc.nat(5), fc.integer({ min: 1, max: 40 }), fc.constantFrom(0, 0.5, 1)).map(([i, n, s]) => new ReceiveCmd(i, n, s)),
  fc.nat(5).map((i) => new CancelCmd(i)),
  fc.nat(5).map((i) => new CloseCmd(i)),
  fc.constantFrom(0, 3, 12).map((h) => new SyncCmd(h)),
];

export function noDoubleOrder(db: 'postgres' | 'embedded'): void {
  jest.setTimeout(600_000);

  describe(`no slot is ordered twice, through the service (model-based, ${db})`, () => {
    let t: TestApp;
    /** The runs the previous sequence left ready or placed: cancelled and closed before the next starts from nothing. */
    let leftover: ModelRun[] = [];
    beforeAll(async () => {
      t = await startTestApp({ db, env: { SERVICE_STAGING_SEED: 'on', SERVICE_CLOCK: 'adjustable', SERVICE_GUARDS: undefined } });
      await waitUntil(async () => (await t.get('/ucp/v1/orders?kind=sale&limit=1')).body.orders?.length > 0, { what: 'the seed sync', timeoutMs: 60_000, intervalMs: 200 });
      await setGuards(t, 100_000_000);
    });
    afterAll(() => t?.close());

    it('holds for random interleavings of plan, run, place, receive, cancel, close and sync', async () => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 8 }), async (cmds) => {
          for (const r of leftover) {
            if (r.status === 'ready') await post(t, `/ucp/v1/replenishment/runs/${r.id}/cancel`, { reason: 'next sequence', confirm: true }).expect(200);
            if (r.status === 'placed') await post(t, `/ucp/v1/replenishment/runs/${r.id}/close`, { reason: 'next sequence', confirm: true }).expect(200);
          }
          const model = new Model();
          leftover = model.runs;
          await fc.asyncModelRun(() => ({ model, real: { t } }), cmds);
        }),
        { numRuns: 3, endOnFailure: true },
      );
    });
  });
}
