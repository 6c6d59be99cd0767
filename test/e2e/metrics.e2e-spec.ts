import { CheckoutRecoveryScheduler } from '../../src/checkout/completion/checkout-recovery.scheduler';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DataSource } from 'typeorm';
import { DEST, NS, readySession, supplierApp } from '../support/money-fixtures';
import { BOTH_DATABASES, TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/**
 * Issue 28: GET /metrics (Prometheus text) read after real traffic: requests through the API, partner calls to a real
 * HTTP supplier (one failing), a recovery job's pass, claims and approvals held in the database, events delivered.
 */
const METRICS_TOKEN = 'metrics-scraper-token-7d1e0b';

/** `name{labels} value` lines of an exposition, by `name{labels}` (labels as printed). */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

describe.each(BOTH_DATABASES)('GET /metrics (%s)', (db) => {
  let p: FakePartner;
  let t: TestApp;
  const scrape = async (): Promise<Map<string, number>> => {
    const res = await t.raw.get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    return samples(res.text);
  };
  /** A complete interrupted `agoSeconds` ago (as crashMidComplete leaves it), on either database. */
  const crashMidComplete = async (id: string, agoSeconds: number): Promise<void> => {
    const ds = t.app.get(DataSource);
    await ds.query(`UPDATE checkout_sessions SET status = 'complete_in_progress', claimed_at = now() - make_interval(secs => $2) WHERE id = $1`, [id, agoSeconds]);
    await ds.query(`INSERT INTO spend_ledger (source, ref, amount_fen, state) SELECT 'checkout', id, total_fen, 'held' FROM checkout_sessions WHERE id = $1`, [id]);
  };
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    t = await supplierApp(p, { SERVICE_METRICS_TOKEN: METRICS_TOKEN }, db === 'embedded' ? 'embedded' : undefined);
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });

  it('answers only to its own token: none and the operator token are 401 envelopes', async () => {
    const none = await t.raw.get('/metrics');
    expect(none.status).toBe(401);
    expect(none.body.messages[0].code).toBe('unauthorized');
    const operator = await t.raw.get('/metrics').set('Authorization', `Bearer ${t.token}`);
    expect(operator.status).toBe(401);
    // ...and the metrics token opens nothing else.
    expect((await t.raw.get('/ucp/v1/approvals').set('Authorization', `Bearer ${METRICS_TOKEN}`)).status).toBe(401);
  });

  it('request durations by route pattern and status, partner calls by namespace, endpoint and outcome', async () => {
    const created = await readySession(t, 'MET-1');
    await t.get(`/ucp/v1/checkout-sessions/${created.body.id}`).expect(200);
    await t.get('/ucp/v1/checkout-sessions/MET-none').expect(404);
    p.fault('POST /orders', { status: 500 });
    await t.post('/ucp/v1/checkout-sessions/MET-1/complete', { confirm: true });
    p.clearFaults();
    const m = await scrape();
    expect(m.get('http_request_duration_seconds_count{method="POST",route="/ucp/v1/checkout-sessions",status="201"}')).toBeGreaterThanOrEqual(1);
    expect(m.get('http_request_duration_seconds_count{method="GET",route="/ucp/v1/checkout-sessions/:id",status="200"}')).toBe(1);
    expect(m.get('http_request_duration_seconds_count{method="GET",route="/ucp/v1/checkout-sessions/:id",status="404"}')).toBe(1);
    expect(m.get(`partner_request_duration_seconds_count{namespace="${NS}",endpoint="GET /catalog",outcome="ok"}`)).toBeGreaterThanOrEqual(1);
    expect(m.get(`partner_request_duration_seconds_count{namespace="${NS}",endpoint="POST /orders",outcome="unreachable"}`)).toBe(1);
    // Ids never become label values.
    expect([...m.keys()].filter((k) => k.includes('MET-'))).toEqual([]);
  });

  it('money claims in flight and past the lease, a recovery pass with its outcome, the job, approvals pending', async () => {
    await readySession(t, 'MET-STUCK');
    await crashMidComplete('MET-STUCK', 300);
    await readySession(t, 'MET-RUNNING');
    await crashMidComplete('MET-RUNNING', 1);
    let m = await scrape();
    expect(m.get('money_claims{kind="checkout",state="past_lease"}')).toBe(1);
    expect(m.get('money_claims{kind="checkout",state="in_flight"}')).toBe(1);
    expect(m.get('money_claims{kind="replenishment_run",state="past_lease"}')).toBe(0);

    // The supplier never got MET-STUCK's order: the pass reads GET /orders/{ref} and releases the claim.
    await t.app.get(CheckoutRecoveryScheduler).tick();
    m = await scrape();
    expect(m.get('money_claims{kind="checkout",state="past_lease"}')).toBe(0);
    expect(m.get('money_claims_recovered_total{kind="checkout",outcome="released"}')).toBe(1);
    expect(m.get('job_runs_total{job="checkout.recovery",outcome="ran"}')).toBe(1);
    expect(m.get('job_duration_seconds_count{job="checkout.recovery",outcome="ran"}')).toBe(1);
    expect(m.get('job_last_success_timestamp_seconds{job="checkout.recovery"}')).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(m.get(`partner_request_duration_seconds_count{namespace="${NS}",endpoint="GET /orders/{ref}",outcome="rejected"}`)).toBe(1);

    // Over the per-order budget: the complete asks the owner.
    const before = m.get('approvals_pending') ?? 0;
    await t.post('/ucp/v1/checkout-sessions', { id: 'MET-BIG', line_items: [{ item: { id: `${NS}:COLA` }, quantity: 30, quantity_unit: { unit: 'BX' } }], fulfillment: DEST });
    await t.post('/ucp/v1/checkout-sessions/MET-BIG/complete', { confirm: true });
    m = await scrape();
    expect(m.get('approvals_pending')).toBe(before + 1);
  });

  it('event delivery lag and the database pool', async () => {
    const m = await waitUntil(
      async () => {
        const s = await scrape();
        return (s.get('event_bus_delivery_lag_seconds_count') ?? 0) > 0 ? s : null;
      },
      { what: 'an event delivered through the bus' },
    );
    expect(m.get('event_bus_delivery_lag_seconds_sum')).toBeGreaterThanOrEqual(0);
    expect(m.get('db_pool_connections{state="max"}')).toBe(db === 'embedded' ? 1 : 10);
    expect(m.get('db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(m.has('db_pool_connections{state="waiting"}')).toBe(true);
    expect(m.has('process_resident_memory_bytes')).toBe(true);
  });
});

describe('GET /metrics without SERVICE_METRICS_TOKEN', () => {
  it('is off: 404 envelope, whatever the token', async () => {
    const p = await startFakePartner({ token: 'sup-token' });
    const t = await supplierApp(p, {}, 'embedded');
    try {
      const res = await t.get('/metrics');
      expect(res.status).toBe(404);
      expect(res.body.messages[0].code).toBe('not_found');
    } finally {
      await t.close();
      await p.close();
    }
  });
});
