import { SchedulerRegistry } from '@nestjs/schedule';
import { CheckoutRecoveryScheduler } from '../../src/checkout/completion/checkout-recovery.scheduler';
import { expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { NS, ordersPosted, readySession, startTwoSupplierInstances, supplierApp } from '../support/money-fixtures';
import { sql } from '../support/sql';
import { crashMidComplete } from '../support/crashes';
import { waitUntil } from '../support/wait-until';

/**
 * Crash recovery of a complete: a session left in complete_in_progress by a process that died between the claim and
 * recording the supplier's answer. The crash is simulated in the database (status, an old claim time and the held
 * amount, as the claim leaves them); the supplier is a real HTTP server that knows the order or not.
 */
/** The supplier received the POST before the crash: it holds an order under ref = session id. */
function supplierKnows(p: FakePartner, id: string, state = 'ordered'): void {
  p.state.orders[id] = {
    request: { ref: id },
    answer: { ref: id, orderId: `FO-${id}`, state: 'ordered', rawStatus: 'CREATED' },
    status: { ref: id, state, rawStatus: state === 'arrived' ? 'DELIVERED' : 'CREATED', logistics: [] },
  };
}

const spend = async (t: TestApp, id: string) => (await sql<{ state: string; amount_fen: string }>(t, `SELECT state, amount_fen FROM spend_ledger WHERE source = 'checkout' AND ref = $1`, [id]))[0] ?? null;
const posts = ordersPosted;
const reads = (p: FakePartner, id: string) => p.requestsTo('GET /orders/:ref').filter((r) => r.path === `/orders/${id}`).length;

describe('recovery of an interrupted complete', () => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    t = await supplierApp(p);
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });
  beforeEach(() => p.clearFaults());

  it('GET past the lease, the supplier knows the order: completed with order, spend recorded as spent, checkout.completed; never POSTed', async () => {
    await readySession(t, 'REC-1');
    await crashMidComplete(t, 'REC-1', 300);
    supplierKnows(p, 'REC-1');
    const res = await t.get('/ucp/v1/checkout-sessions/REC-1');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(res.body.order).toMatchObject({ id: 'REC-1' });
    expect(reads(p, 'REC-1')).toBe(1);
    expect(posts(p, 'REC-1')).toBe(0);
    expect(await spend(t, 'REC-1')).toEqual({ state: 'spent', amount_fen: '9600' });
    const ev = (await t.get('/ucp/v1/events?kind=checkout.completed')).body.events.find((e: { data: { session_id: string } }) => e.data.session_id === 'REC-1');
    expect(ev.data).toMatchObject({ recovered: true, supplier_state: 'ordered', total_fen: 9600 });
    const [row] = await sql<{ status: string; supplier_state: string }>(t, `SELECT status, supplier_state FROM checkout_sessions WHERE id = 'REC-1'`);
    expect(row).toEqual({ status: 'completed', supplier_state: 'ordered' });
    // Settled once: the next GET reads nothing from the supplier, completing again is the usual 409.
    await t.get('/ucp/v1/checkout-sessions/REC-1').expect(200);
    expect(reads(p, 'REC-1')).toBe(1);
    expectError(await t.post('/ucp/v1/checkout-sessions/REC-1/complete', { confirm: true }), 409, 'invalid_state');
    expect(posts(p, 'REC-1')).toBe(0);
  });

  it('GET past the lease, the supplier does not know the ref: ready_for_complete with a message, held amount released; completing again places it once', async () => {
    await readySession(t, 'REC-2');
    await crashMidComplete(t, 'REC-2', 300);
    expect(await spend(t, 'REC-2')).toEqual({ state: 'held', amount_fen: '9600' });
    const res = await t.get('/ucp/v1/checkout-sessions/REC-2');
    expect(res.body.status).toBe('ready_for_complete');
    expect(res.body.messages).toContainEqual(expect.objectContaining({ code: 'order_not_placed', severity: 'recoverable' }));
    expect(reads(p, 'REC-2')).toBe(1);
    expect(posts(p, 'REC-2')).toBe(0);
    expect(await spend(t, 'REC-2')).toBeNull();
    const ev = (await t.get('/ucp/v1/events?kind=checkout.rejected')).body.events.find((e: { data: { session_id: string } }) => e.data.session_id === 'REC-2');
    expect(ev.data).toMatchObject({ outcome: 'not_placed', recovered: true });
    const done = await t.post('/ucp/v1/checkout-sessions/REC-2/complete', { confirm: true });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('completed');
    expect(posts(p, 'REC-2')).toBe(1);
    expect(await spend(t, 'REC-2')).toEqual({ state: 'spent', amount_fen: '9600' });
  });

  it('complete past the lease, the supplier knows the order: 200 completed with that order, nothing POSTed', async () => {
    await readySession(t, 'REC-3');
    await crashMidComplete(t, 'REC-3', 300);
    supplierKnows(p, 'REC-3', 'arrived');
    const res = await t.post('/ucp/v1/checkout-sessions/REC-3/complete', { confirm: true });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(res.body.order.id).toBe('REC-3');
    expect(posts(p, 'REC-3')).toBe(0);
    expect(await spend(t, 'REC-3')).toEqual({ state: 'spent', amount_fen: '9600' });
  });

  it('complete past the lease, the supplier does not know the ref: settled, then this complete places the order once', async () => {
    await readySession(t, 'REC-4');
    await crashMidComplete(t, 'REC-4', 300);
    const res = await t.post('/ucp/v1/checkout-sessions/REC-4/complete', { confirm: true });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(reads(p, 'REC-4')).toBe(1);
    expect(posts(p, 'REC-4')).toBe(1);
  });

  it('within the lease nothing is read: GET shows complete_in_progress, complete and cancel are 409 complete_in_progress', async () => {
    await readySession(t, 'REC-5');
    await crashMidComplete(t, 'REC-5', 30);
    supplierKnows(p, 'REC-5');
    expect((await t.get('/ucp/v1/checkout-sessions/REC-5')).body.status).toBe('complete_in_progress');
    expectError(await t.post('/ucp/v1/checkout-sessions/REC-5/complete', { confirm: true }), 409, 'complete_in_progress');
    expectError(await t.post('/ucp/v1/checkout-sessions/REC-5/cancel'), 409, 'complete_in_progress');
    expect(await t.app.get(CheckoutRecoveryScheduler).tick()).toMatchObject({ checked: 0 });
    expect(reads(p, 'REC-5')).toBe(0);
    expect(posts(p, 'REC-5')).toBe(0);
    expect(await spend(t, 'REC-5')).toEqual({ state: 'held', amount_fen: '9600' });
  });

  it('cancel past the lease, the supplier does not know the ref: settled, then canceled', async () => {
    await readySession(t, 'REC-6');
    await crashMidComplete(t, 'REC-6', 300);
    const res = await t.post('/ucp/v1/checkout-sessions/REC-6/cancel');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('canceled');
    expect(await spend(t, 'REC-6')).toBeNull();
    expect(posts(p, 'REC-6')).toBe(0);
  });

  it('supplier unreachable or unusable: left as it is (amount held) for the next tick, which settles it', async () => {
    await readySession(t, 'REC-7');
    await crashMidComplete(t, 'REC-7', 300);
    supplierKnows(p, 'REC-7');
    p.fault('GET /orders/:ref', { destroy: true, times: 1 });
    expect((await t.get('/ucp/v1/checkout-sessions/REC-7')).body.status).toBe('complete_in_progress');
    p.fault('GET /orders/:ref', { status: 503, times: 1 });
    expectError(await t.post('/ucp/v1/checkout-sessions/REC-7/complete', { confirm: true }), 409, 'complete_in_progress');
    p.fault('GET /orders/:ref', { status: 200, rawBody: 'not json', times: 1 });
    expect((await t.get('/ucp/v1/checkout-sessions/REC-7')).body.status).toBe('complete_in_progress');
    expect(await spend(t, 'REC-7')).toEqual({ state: 'held', amount_fen: '9600' });
    expect(reads(p, 'REC-7')).toBe(3);
    expect(posts(p, 'REC-7')).toBe(0);

    const run = await t.app.get(CheckoutRecoveryScheduler).tick();
    expect(run).toEqual({ checked: 1, completed: 1, released: 0, left: 0 });
    expect((await t.get('/ucp/v1/checkout-sessions/REC-7')).body.status).toBe('completed');
    expect(await spend(t, 'REC-7')).toEqual({ state: 'spent', amount_fen: '9600' });
    expect(posts(p, 'REC-7')).toBe(0);
  });

  it('an ambiguous read (429, 408, 409, a 404 without {ok:false}) keeps the amount held and permits no second order; a clear "ref unknown" later releases it', async () => {
    await readySession(t, 'REC-9');
    await crashMidComplete(t, 'REC-9', 300);
    const faults = [
      { status: 429, body: { ok: false, reason: 'too many requests' } },
      { status: 408, body: { ok: false, reason: 'request timeout' } },
      { status: 409, body: { ok: false, reason: 'busy' } },
      { status: 404, rawBody: '' },
      { status: 404, rawBody: '<html>not found</html>' },
    ];
    for (const f of faults) {
      p.fault('GET /orders/:ref', { ...f, times: 1 });
      expectError(await t.post('/ucp/v1/checkout-sessions/REC-9/complete', { confirm: true }), 409, 'complete_in_progress');
      expect(await spend(t, 'REC-9')).toEqual({ state: 'held', amount_fen: '9600' });
    }
    p.fault('GET /orders/:ref', { status: 429, body: { ok: false, reason: 'too many requests' }, times: 1 });
    expect((await t.get('/ucp/v1/checkout-sessions/REC-9')).body.status).toBe('complete_in_progress');
    expect(reads(p, 'REC-9')).toBe(faults.length + 1);
    expect(posts(p, 'REC-9')).toBe(0);
    expect(await spend(t, 'REC-9')).toEqual({ state: 'held', amount_fen: '9600' });
    // The supplier now answers clearly that it does not know the ref: released, and completing places it once.
    expect((await t.get('/ucp/v1/checkout-sessions/REC-9')).body.status).toBe('ready_for_complete');
    expect(await spend(t, 'REC-9')).toBeNull();
    expect((await t.post('/ucp/v1/checkout-sessions/REC-9/complete', { confirm: true })).body.status).toBe('completed');
    expect(posts(p, 'REC-9')).toBe(1);
  });

  it('a late supplier acceptance after recovery found no order is still recorded (the order exists)', async () => {
    await readySession(t, 'REC-8');
    p.fault('POST /orders', { delayMs: 800, times: 1 });
    const completing = t.post('/ucp/v1/checkout-sessions/REC-8/complete', { confirm: true }).then((r) => r);
    // While the POST is in flight its claim is made to look expired and recovery runs: the supplier does not know the ref yet.
    await waitUntil(() => posts(p, 'REC-8') > 0, { what: 'the complete of REC-8 to reach the supplier' });
    expect(posts(p, 'REC-8')).toBe(1);
    await sql(t, `UPDATE checkout_sessions SET claimed_at = claimed_at - interval '10 minutes' WHERE id = 'REC-8'`);
    expect((await t.get('/ucp/v1/checkout-sessions/REC-8')).body.status).toBe('ready_for_complete');
    expect(reads(p, 'REC-8')).toBe(1);
    expect(await spend(t, 'REC-8')).toBeNull();
    const res = await completing;
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(await spend(t, 'REC-8')).toEqual({ state: 'spent', amount_fen: '9600' });
    expect(posts(p, 'REC-8')).toBe(1);
  });
});

describe('scheduled recovery', () => {
  let p: FakePartner;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => ({ p, a, b, close } = await startTwoSupplierInstances()));
  afterAll(() => close());

  it('one tick across two instances settles every expired claim once, reading the supplier once per session', async () => {
    await readySession(a, 'SCH-1');
    await readySession(a, 'SCH-2');
    await readySession(a, 'SCH-3');
    await crashMidComplete(a, 'SCH-1', 600);
    await crashMidComplete(a, 'SCH-2', 600);
    await crashMidComplete(a, 'SCH-3', 10);
    supplierKnows(p, 'SCH-1');
    p.fault('GET /orders/:ref', { delayMs: 300 });
    const [ra, rb] = await Promise.all([a.app.get(CheckoutRecoveryScheduler).tick(), b.app.get(CheckoutRecoveryScheduler).tick()]);
    p.clearFaults();
    const ran = [ra, rb].filter((r) => r !== null);
    expect(ran).toEqual([{ checked: 2, completed: 1, released: 1, left: 0 }]);
    expect(reads(p, 'SCH-1')).toBe(1);
    expect(reads(p, 'SCH-2')).toBe(1);
    expect(reads(p, 'SCH-3')).toBe(0);
    const status = async (id: string) => (await sql<{ status: string }>(a, `SELECT status FROM checkout_sessions WHERE id = $1`, [id]))[0].status;
    expect([await status('SCH-1'), await status('SCH-2'), await status('SCH-3')]).toEqual(['completed', 'ready_for_complete', 'complete_in_progress']);
    expect(p.requestsTo('POST /orders')).toHaveLength(0);
  });

  it('the job is registered only when the scheduler is on', async () => {
    expect(a.app.get(SchedulerRegistry).getIntervals()).not.toContain('checkout.recovery');
    const on = await supplierApp(p, { SERVICE_SCHEDULER: 'on' }, 'embedded');
    try {
      expect(on.app.get(SchedulerRegistry).getIntervals()).toContain('checkout.recovery');
    } finally {
      await on.close();
    }
  });
});
