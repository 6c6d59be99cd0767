import type { TestApp } from '../support/test-app';
import type { FakePartner } from '../partners/fake-partner-server';
import { readySession, startTwoSupplierInstances } from '../support/money-fixtures';
import { waitUntil } from '../support/wait-until';

/** The guarantee: concurrent completes of one session place ONE supplier order, with or without keys, across instances. */
describe('concurrent completes and idempotency keys', () => {
  let p: FakePartner;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ p, a, b, close } = await startTwoSupplierInstances());
  });
  afterAll(() => close());

  it('20 concurrent completes (mixed keys and none, two instances) at one session: the supplier sees exactly one POST /orders', async () => {
    await readySession(a, 'RACE-1');
    p.fault('POST /orders', { delayMs: 150, times: 1 });
    const shots = Array.from({ length: 20 }, (_, i) => {
      const app = i % 2 ? a : b;
      const req = app.post('/ucp/v1/checkout-sessions/RACE-1/complete', { confirm: true });
      return i % 3 === 0 ? req : req.set('Idempotency-Key', `race-key-${i % 4}`);
    });
    const res = await Promise.all(shots);
    const orders = p.requestsTo('POST /orders').filter((r) => (r.body as { ref: string }).ref === 'RACE-1');
    expect(orders).toHaveLength(1);
    const statuses = res.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    for (const r of res) {
      expect([200, 409]).toContain(r.status);
      if (r.status === 200) expect(r.body.status).toBe('completed');
    }
    expect((await a.get('/ucp/v1/checkout-sessions/RACE-1')).body.status).toBe('completed');
  });

  it('Idempotency-Key on complete: replay returns the stored answer and calls nothing; in flight is 409 in_use; another body is 409 mismatch', async () => {
    await readySession(a, 'IDEM-1');
    p.fault('POST /orders', { delayMs: 300, times: 1 });
    const sent = p.requestsTo('POST /orders').length;
    const [first, second] = await Promise.all([
      a.post('/ucp/v1/checkout-sessions/IDEM-1/complete', { confirm: true }).set('Idempotency-Key', 'k-idem-1'),
      // The second arrives while the first is at the supplier (its key claimed, its answer not stored yet).
      waitUntil(() => p.requestsTo('POST /orders').length > sent, { what: 'the first complete to reach the supplier' }).then(() =>
        b.post('/ucp/v1/checkout-sessions/IDEM-1/complete', { confirm: true }).set('Idempotency-Key', 'k-idem-1'),
      ),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(409);
    expect(second.body.messages[0].code).toBe('idempotency_key_in_use');
    const replay = await b.post('/ucp/v1/checkout-sessions/IDEM-1/complete', { confirm: true }).set('Idempotency-Key', 'k-idem-1');
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const other = await a.post('/ucp/v1/checkout-sessions/IDEM-1/complete', { confirm: true, payment: { instruments: [] } }).set('Idempotency-Key', 'k-idem-1');
    expect(other.status).toBe(409);
    expect(other.body.messages[0].code).toBe('idempotency_key_mismatch');
    expect(p.requestsTo('POST /orders').filter((r) => (r.body as { ref: string }).ref === 'IDEM-1')).toHaveLength(1);
  });

  it('Idempotency-Key on create: a replay returns the same session, no second one', async () => {
    const body = { line_items: [{ item: { id: 'acme-supply:WATER' }, quantity: 1 }] };
    const first = await a.post('/ucp/v1/checkout-sessions', body).set('Idempotency-Key', 'create-1');
    expect(first.status).toBe(201);
    const again = await b.post('/ucp/v1/checkout-sessions', body).set('Idempotency-Key', 'create-1');
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const other = await a.post('/ucp/v1/checkout-sessions', { line_items: [{ item: { id: 'acme-supply:WATER' }, quantity: 2 }] }).set('Idempotency-Key', 'create-1');
    expect(other.status).toBe(409);
  });

  it('a supplier refusal under a key is stored: the replay answers the same 502 and calls nothing again', async () => {
    await readySession(a, 'IDEM-REJ');
    p.fault('POST /orders', { status: 422, body: { ok: false, reason: 'credit limit' }, times: 1 });
    const first = await a.post('/ucp/v1/checkout-sessions/IDEM-REJ/complete', { confirm: true }).set('Idempotency-Key', 'k-rej');
    expect(first.status).toBe(502);
    const n = p.requestsTo('POST /orders').length;
    const replay = await a.post('/ucp/v1/checkout-sessions/IDEM-REJ/complete', { confirm: true }).set('Idempotency-Key', 'k-rej');
    expect(replay.status).toBe(502);
    expect(replay.body.messages[0].code).toBe('supplier_rejected');
    expect(p.requestsTo('POST /orders')).toHaveLength(n);
  });
});
