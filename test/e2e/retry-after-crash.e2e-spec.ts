import { DataSource } from 'typeorm';
import { CheckoutRecoveryScheduler } from '../../src/checkout/completion/checkout-recovery.scheduler';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { crashMidComplete, crashWithKeyInFlight } from '../support/crashes';
import { expectError } from '../support/envelope';
import { ordersPosted, readySession, secondSupplierInstance, supplierApp } from '../support/money-fixtures';
import { BOTH_DATABASES, TestApp } from '../support/test-app';

/**
 * Issue 27, item 2: a retry with the same Idempotency-Key and body answers the operation's final outcome after the
 * first attempt's process died: the completed session (finished by the lease's recovery), never a 409 a client
 * could read as "not done"; while it is still settling, 409 in progress with `Retry-After`. The kill is written
 * into the database at the point the soak hit (the supplier took the order and held its answer; the key in_flight,
 * the session complete_in_progress, the amount held); the supplier is a real HTTP server that knows the order.
 */
jest.setTimeout(120_000);

const COMPLETE = { confirm: true };

/** The supplier took the dead process's POST: it knows the order under ref = session id. */
function supplierKnows(p: FakePartner, id: string): void {
  p.state.orders[id] = {
    request: { ref: id },
    answer: { ref: id, orderId: `FO-${id}`, state: 'ordered', rawStatus: 'CREATED' },
    status: { ref: id, state: 'ordered', rawStatus: 'CREATED', logistics: [] },
  };
}

/** The process completing `id` under `key` died while the supplier held its answer, `agoSeconds` ago. */
async function diedCompleting(t: TestApp, p: FakePartner, id: string, key: string, agoSeconds: number, sessionAgoSeconds = agoSeconds): Promise<void> {
  await readySession(t, id);
  supplierKnows(p, id);
  await crashMidComplete(t, id, sessionAgoSeconds);
  await crashWithKeyInFlight(t, key, { operation: 'checkout.complete', resourceId: id, body: COMPLETE }, agoSeconds);
}

/** The session's claim made `agoSeconds` old (the lease ends as time passes). */
async function ageSessionClaim(t: TestApp, id: string, agoSeconds: number): Promise<void> {
  await t.app.get(DataSource).query(`UPDATE checkout_sessions SET claimed_at = now() - make_interval(secs => $2) WHERE id = $1`, [id, agoSeconds]);
}

describe.each(BOTH_DATABASES)('a retry of a complete after a crash, on %s', (db) => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    t = await supplierApp(p, {}, db === 'embedded' ? 'embedded' : undefined);
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });
  beforeEach(() => p.clearFaults());

  const complete = (id: string, key: string) => t.post(`/ucp/v1/checkout-sessions/${id}/complete`, COMPLETE).set('Idempotency-Key', key);
  const tick = () => t.app.get(CheckoutRecoveryScheduler).tick();

  it('recovered to completed by the lease, then retried with the same key: 200 with the completed session and its order, replayed after; never ordered again', async () => {
    await diedCompleting(t, p, 'RTY-1', `k-rty-1-${db}`, 300);
    expect(await tick()).toMatchObject({ completed: 1 });
    const res = await complete('RTY-1', `k-rty-1-${db}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'RTY-1', status: 'completed', order: { id: 'RTY-1' } });
    const again = await complete('RTY-1', `k-rty-1-${db}`);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(res.body);
    expect(ordersPosted(p, 'RTY-1')).toBe(0);
    // Another key is another request: the session is completed, the usual 409.
    expectError(await complete('RTY-1', `k-rty-1-other-${db}`), 409, 'invalid_state');
  });

  it('still settling: 409 complete_in_progress with Retry-After, the key stays bound to the first attempt; once the lease recovered it, the retry answers the completed session', async () => {
    // The session's own claim is younger than the key's (claimed after it): still within its lease.
    await diedCompleting(t, p, 'RTY-2', `k-rty-2-${db}`, 300, 30);
    const early = await complete('RTY-2', `k-rty-2-${db}`);
    expectError(early, 409, 'complete_in_progress');
    expect(Number(early.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(early.headers['retry-after'])).toBeLessThanOrEqual(10);
    await ageSessionClaim(t, 'RTY-2', 300);
    expect(await tick()).toMatchObject({ completed: 1 });
    const res = await complete('RTY-2', `k-rty-2-${db}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'RTY-2', status: 'completed', order: { id: 'RTY-2' } });
    expect(ordersPosted(p, 'RTY-2')).toBe(0);
  });

  it('the first attempt is within its lease: 409 idempotency_key_in_use with Retry-After; nothing is read or sent', async () => {
    await diedCompleting(t, p, 'RTY-3', `k-rty-3-${db}`, 30);
    const res = await complete('RTY-3', `k-rty-3-${db}`);
    expectError(res, 409, 'idempotency_key_in_use');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(10);
    expect(ordersPosted(p, 'RTY-3')).toBe(0);
    expect(p.requestsTo('GET /orders/:ref').filter((r) => r.path === '/orders/RTY-3')).toHaveLength(0);
  });
});

describe('a retry of a complete after a crash, on another instance (one PostgreSQL)', () => {
  let p: FakePartner;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    a = await supplierApp(p);
    b = await secondSupplierInstance(a, p);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await p.close();
  });

  it('instance A died completing; its lease recovery ran on A; the retry with the same key on B answers the completed session', async () => {
    await diedCompleting(a, p, 'RTY-X', 'k-rty-x', 300);
    expect(await a.app.get(CheckoutRecoveryScheduler).tick()).toMatchObject({ completed: 1 });
    const res = await b.post('/ucp/v1/checkout-sessions/RTY-X/complete', COMPLETE).set('Idempotency-Key', 'k-rty-x');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'RTY-X', status: 'completed', order: { id: 'RTY-X' } });
    const replay = await a.post('/ucp/v1/checkout-sessions/RTY-X/complete', COMPLETE).set('Idempotency-Key', 'k-rty-x');
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(ordersPosted(p, 'RTY-X')).toBe(0);
  });
});
