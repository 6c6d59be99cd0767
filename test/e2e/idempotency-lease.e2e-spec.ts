import { fingerprint } from '../../src/idempotency/idempotency.rules';
import { IdempotencyService } from '../../src/idempotency/idempotency.service';
import { startTestApp, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { NS, ordersPosted, readySession, startTwoSupplierInstances, supplierApp } from '../support/money-fixtures';
import { sql } from '../support/sql';
import { waitUntil } from '../support/wait-until';

/**
 * In-flight idempotency claims have a lease: a key left in_flight by a crashed process is taken over by the same
 * request once the lease has passed (one winner across instances); a fresh claim still answers 409 in_use.
 */
const COMPLETE = { confirm: true };

/** The row a crashed process leaves: the key claimed `agoSeconds` ago for this complete, never finished. */
async function inFlight(t: TestApp, key: string, sessionId: string, agoSeconds: number, body: unknown = COMPLETE): Promise<void> {
  const fp = fingerprint('checkout.complete', sessionId, JSON.stringify(body));
  await sql(
    t,
    `INSERT INTO idempotency_keys (key, fingerprint, operation, resource_id, state, created_at, claimed_at, claim_id)
     VALUES ($1, $2, 'checkout.complete', $3, 'in_flight', now() - make_interval(secs => $4), now() - make_interval(secs => $4), 'dead-process')`,
    [key, fp, sessionId, agoSeconds],
  );
}

const posts = ordersPosted;

describe('idempotency key leases', () => {
  let p: FakePartner;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => ({ p, a, b, close } = await startTwoSupplierInstances()));
  afterAll(() => close());
  beforeEach(() => p.clearFaults());

  it('a stale in-flight key: the same request takes it over and runs; its answer is stored and replays', async () => {
    await readySession(a, 'LEASE-1');
    await inFlight(a, 'k-stale', 'LEASE-1', 300);
    const res = await a.post('/ucp/v1/checkout-sessions/LEASE-1/complete', COMPLETE).set('Idempotency-Key', 'k-stale');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(posts(p, 'LEASE-1')).toBe(1);
    const [row] = await sql<{ state: string; response_status: number; claim_id: string }>(a, `SELECT state, response_status, claim_id FROM idempotency_keys WHERE key = 'k-stale'`);
    expect(row.state).toBe('done');
    expect(row.response_status).toBe(200);
    expect(row.claim_id).not.toBe('dead-process');
    const replay = await b.post('/ucp/v1/checkout-sessions/LEASE-1/complete', COMPLETE).set('Idempotency-Key', 'k-stale');
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(posts(p, 'LEASE-1')).toBe(1);
  });

  it('a fresh in-flight key is still 409 idempotency_key_in_use and runs nothing', async () => {
    await readySession(a, 'LEASE-2');
    await inFlight(a, 'k-fresh', 'LEASE-2', 20);
    const res = await a.post('/ucp/v1/checkout-sessions/LEASE-2/complete', COMPLETE).set('Idempotency-Key', 'k-fresh');
    expect(res.status).toBe(409);
    expect(res.body.messages[0].code).toBe('idempotency_key_in_use');
    expect(posts(p, 'LEASE-2')).toBe(0);
    expect((await a.get('/ucp/v1/checkout-sessions/LEASE-2')).body.status).toBe('ready_for_complete');
    const [row] = await sql<{ claim_id: string }>(a, `SELECT claim_id FROM idempotency_keys WHERE key = 'k-fresh'`);
    expect(row.claim_id).toBe('dead-process');
  });

  it('a stale in-flight key under another request is 409 idempotency_key_mismatch (never taken over)', async () => {
    await readySession(a, 'LEASE-3');
    await inFlight(a, 'k-other', 'LEASE-3', 300, { confirm: true, payment: { instruments: [] } });
    const res = await a.post('/ucp/v1/checkout-sessions/LEASE-3/complete', COMPLETE).set('Idempotency-Key', 'k-other');
    expect(res.status).toBe(409);
    expect(res.body.messages[0].code).toBe('idempotency_key_mismatch');
    expect(posts(p, 'LEASE-3')).toBe(0);
  });

  it('two instances retrying one stale key at once: one takes it over, the other is 409 in_use; one supplier order', async () => {
    await readySession(a, 'LEASE-4');
    await inFlight(a, 'k-race', 'LEASE-4', 300);
    p.fault('POST /orders', { delayMs: 300, times: 1 });
    const res = await Promise.all([
      a.post('/ucp/v1/checkout-sessions/LEASE-4/complete', COMPLETE).set('Idempotency-Key', 'k-race'),
      b.post('/ucp/v1/checkout-sessions/LEASE-4/complete', COMPLETE).set('Idempotency-Key', 'k-race'),
    ]);
    expect(res.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(res.find((r) => r.status === 409)!.body.messages[0].code).toBe('idempotency_key_in_use');
    expect(posts(p, 'LEASE-4')).toBe(1);
  });

  it('the crash mid-complete: stale key and session stuck in complete_in_progress; the retry settles it from GET /orders, never POSTs again', async () => {
    await readySession(a, 'LEASE-5');
    await inFlight(a, 'k-crash', 'LEASE-5', 300);
    await sql(a, `UPDATE checkout_sessions SET status = 'complete_in_progress', claimed_at = now() - interval '5 minutes' WHERE id = 'LEASE-5'`);
    p.state.orders['LEASE-5'] = {
      request: { ref: 'LEASE-5' },
      answer: { ref: 'LEASE-5', orderId: 'FO-L5', state: 'ordered', rawStatus: 'CREATED' },
      status: { ref: 'LEASE-5', state: 'ordered', rawStatus: 'CREATED', logistics: [] },
    };
    const res = await a.post('/ucp/v1/checkout-sessions/LEASE-5/complete', COMPLETE).set('Idempotency-Key', 'k-crash');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(res.body.order.id).toBe('LEASE-5');
    expect(posts(p, 'LEASE-5')).toBe(0);
  });

  it('the late outcome of a taken-over claim does not overwrite the stored answer', async () => {
    const svc = a.app.get(IdempotencyService);
    const scope = { operation: 'test.op', resourceId: 'r1', rawBody: '{"x":1}' };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = svc.run('k-late', scope, async () => {
      await gate;
      return { status: 200, body: { who: 'first' } };
    });
    await waitUntil(async () => (await sql(a, `SELECT 1 FROM idempotency_keys WHERE key = 'k-late'`)).length > 0, { what: 'the first claim of k-late' });
    await sql(a, `UPDATE idempotency_keys SET claimed_at = now() - interval '10 minutes' WHERE key = 'k-late'`);
    const second = await svc.run('k-late', scope, async () => ({ status: 200, body: { who: 'second' } }));
    expect(second).toEqual({ status: 200, body: { who: 'second' }, replayed: false });
    release();
    expect((await slow).body).toEqual({ who: 'first' });
    const replay = await svc.run('k-late', scope, async () => ({ status: 200, body: { who: 'third' } }));
    expect(replay).toEqual({ status: 200, body: { who: 'second' }, replayed: true });
  });
});
