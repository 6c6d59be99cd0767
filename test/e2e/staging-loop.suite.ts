import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

// Run on PostgreSQL by staging-loop.e2e-spec.ts and on the embedded database by staging-loop-embedded.e2e-spec.ts, so
// a file each stays under 20 s; the service clock outside a staging replay is staging-loop-clock.e2e-spec.ts.

const LOC = 'sim-loc-01';
const HOUR_MS = 3_600_000;

interface PlanSlot {
  slot_id: string;
  stock: number;
  capacity: number | null;
  target: number;
  quantity_each: number;
  carried_by_fulfiller: boolean;
}

/**
 * Issue 25, item 5: staging closes the loop. The simulated machines sell from their shelves as the service clock
 * moves, and goods received into their slots go onto those shelves, so plan → run → place → receive → sync → plan
 * proposes nothing for what was delivered (a sync used to put the platform's old stock back), and after three days
 * of sales the plan asks again.
 */
export function stagingLoopSuite(db: 'postgres' | 'embedded'): void {
  describe(`staging closes the replenishment loop (${db})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ db, env: { SERVICE_STAGING_SEED: 'on', SERVICE_CLOCK: 'adjustable' } });
      // The seed's first sync runs in the background: wait until its sales are in.
      await waitUntil(async () => (await t.get('/ucp/v1/orders?kind=sale&limit=1')).body.orders?.length > 0, { what: 'the seed sync', timeoutMs: 60_000, intervalMs: 200 });
    });
    afterAll(() => t?.close());

    const clockNow = async () => Date.parse((await t.get('/ucp/v1/admin/clock').expect(200)).body.clock.now);
    /** Moves the service clock to the next 02:00 (+08:00) at least `days` days ahead: the machines sell nothing from 01:00 to 05:00. */
    const advanceToNight = async (days: number) => {
      const now = await clockNow();
      const cnMidnight = Math.floor((now + 8 * HOUR_MS) / (24 * HOUR_MS)) * 24 * HOUR_MS - 8 * HOUR_MS;
      let target = cnMidnight + 2 * HOUR_MS + days * 24 * HOUR_MS;
      if (target <= now) target += 24 * HOUR_MS;
      const res = await t.post('/ucp/v1/admin/clock/advance', { seconds: Math.ceil((target - now) / 1000) }).expect(200);
      return Date.parse(res.body.clock.now);
    };
    const sync = async () => {
      const res = await t.post('/ucp/v1/locations/sync', {}).expect(200);
      return res.body;
    };
    const plan = async () => {
      const res = await t.get(`/ucp/v1/replenishment/plan?location=${LOC}`).expect(200);
      return { body: res.body, slots: new Map((res.body.slots as PlanSlot[]).map((s) => [s.slot_id, s])) };
    };

    it('plan, run, place, receive, sync, plan: what was delivered is not proposed again; sales move the next plan', async () => {
      const night = await advanceToNight(0);
      await sync();
      const before = await plan();
      expect(Date.parse(before.body.computed_at)).toBeGreaterThanOrEqual(night);
      const needs = [...before.slots.values()].filter((s) => s.quantity_each > 0);
      expect(needs.length).toBeGreaterThan(0);

      const run = (await t.post(`/ucp/v1/replenishment/runs?location=${LOC}`).expect(201)).body;
      // Every slot below target whose good a supplier carries (the plan names the others not_carried).
      expect(run.lines.length).toBe(needs.filter((s) => s.carried_by_fulfiller).length);
      expect(run.lines.length).toBeGreaterThan(0);
      await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).set('Idempotency-Key', randomUUID()).expect(200);
      const delivered = run.lines.map((l: { slot_id: string; ordered_each: number }) => ({ slot_id: l.slot_id, quantity: l.ordered_each }));
      await t.post(`/ucp/v1/replenishment/runs/${run.id}/receive`, { delivered }).expect(200);

      // The platform put the goods on its shelves: the sync reads them back instead of the old stock.
      await sync();
      const after = await plan();
      for (const d of delivered as { slot_id: string; quantity: number }[]) {
        const was = before.slots.get(d.slot_id)!;
        const now = after.slots.get(d.slot_id)!;
        expect({ slot: d.slot_id, stock: now.stock, need: now.quantity_each }).toEqual({
          slot: d.slot_id,
          stock: Math.min(was.capacity ?? Infinity, was.stock + d.quantity),
          need: Math.max(0, now.target - Math.min(was.capacity ?? Infinity, was.stock + d.quantity)),
        });
        expect(now.quantity_each).toBeLessThan(was.quantity_each);
      }
      expect(after.body.totals.units_each).toBeLessThan(before.body.totals.units_each);

      // Three days later the machines have sold: stock fell, new sales are in the ledger, and the plan asks again.
      const later = await advanceToNight(3);
      const synced = await sync();
      expect(synced.sales).toBeGreaterThan(0);
      const third = await plan();
      const fell = [...third.slots.values()].filter((s) => s.stock < (after.slots.get(s.slot_id)?.stock ?? 0));
      expect(fell.length).toBeGreaterThan(0);
      expect(third.body.totals.units_each).toBeGreaterThan(after.body.totals.units_each);
      const sales = (await t.get(`/ucp/v1/orders?kind=sale&location=${LOC}&limit=5`).expect(200)).body.orders as { taken_at: string }[];
      expect(Date.parse(sales[0].taken_at)).toBeGreaterThan(night);
      expect(Date.parse(sales[0].taken_at)).toBeLessThanOrEqual(later);
    });
  });
}
