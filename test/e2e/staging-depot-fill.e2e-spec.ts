import { randomUUID } from 'node:crypto';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

jest.setTimeout(180_000);

const LOC = 'sim-loc-01';
const HOUR_MS = 3_600_000;

/**
 * Issue 25: in staging a fill from the depot (`POST /depot/fill`) goes onto the simulated machine's shelves like a
 * delivery, so the next sync reads it back instead of putting the platform's old stock back.
 */
describe.each(BOTH_DATABASES)('staging: a fill from the depot reaches the simulated shelves (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db, env: { SERVICE_STAGING_SEED: 'on', SERVICE_CLOCK: 'adjustable' } });
    await waitUntil(async () => (await t.get('/ucp/v1/orders?kind=sale&limit=1')).body.orders?.length > 0, { what: 'the seed sync', timeoutMs: 60_000, intervalMs: 200 });
  });
  afterAll(() => t?.close());

  it('fill, sync: the slot keeps the filled units', async () => {
    // 02:00 (+08:00): the simulated machines sell nothing between 01:00 and 05:00.
    const now = Date.parse((await t.get('/ucp/v1/admin/clock').expect(200)).body.clock.now);
    const cnMidnight = Math.floor((now + 8 * HOUR_MS) / (24 * HOUR_MS)) * 24 * HOUR_MS - 8 * HOUR_MS;
    let night = cnMidnight + 2 * HOUR_MS;
    if (night <= now) night += 24 * HOUR_MS;
    await t.post('/ucp/v1/admin/clock/advance', { seconds: Math.ceil((night - now) / 1000) }).expect(200);
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
    const plan = (await t.get(`/ucp/v1/replenishment/plan?location=${LOC}`).expect(200)).body;
    const slot = (plan.slots as { slot_id: string; item: { id: string }; stock: number; capacity: number | null }[]).find((s) => s.capacity !== null && s.capacity - s.stock >= 2)!;
    expect(slot).toBeDefined();
    await t
      .post('/ucp/v1/depot/counts', { counts: [{ item: { id: slot.item.id }, quantity: 2 }], reason: 'test: two in the van', confirm: true })
      .set('Idempotency-Key', randomUUID())
      .expect(200);
    await t.post('/ucp/v1/depot/fill', { fills: [{ slot_id: slot.slot_id, quantity: 2 }], confirm: true }).set('Idempotency-Key', randomUUID()).expect(200);
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
    const after = (await t.get(`/ucp/v1/replenishment/plan?location=${LOC}`).expect(200)).body;
    expect((after.slots as { slot_id: string; stock: number }[]).find((s) => s.slot_id === slot.slot_id)!.stock).toBe(slot.stock + 2);
  });
});
