import { expectEnvelope, expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, GUARDS, NS, readySession, supplierApp } from '../support/money-fixtures';

/** Checkout sessions against a real HTTP supplier (production env: registered partners only). */
describe('checkout sessions (PostgreSQL)', () => {
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

  it('create tells what is missing; update fixes it; BX echoes the box price; complete places one order', async () => {
    const created = await t.post('/ucp/v1/checkout-sessions', { id: 'PO-1', line_items: [{ item: { id: `${NS}:COLA` }, quantity: 2, quantity_unit: { unit: 'BX' } }] });
    expect(created.status).toBe(201);
    expectEnvelope(created.body, 'success');
    expect(created.body.status).toBe('incomplete');
    expect(created.body.messages.map((m: { path: string }) => m.path)).toContain('$.fulfillment.methods[0].destinations');
    expect(created.body.line_items[0].item.price).toEqual({ amount: 4800, currency: 'CNY' });
    expect(created.body.totals).toContainEqual({ type: 'total', amount: 9600 });

    const updated = await t.put('/ucp/v1/checkout-sessions/PO-1', { fulfillment: DEST, line_items: [{ item: { id: `${NS}:WATER` }, quantity: 3 }] });
    expect(updated.status).toBe(200);
    expect(updated.body.status).toBe('ready_for_complete');
    expect(updated.body.line_items).toHaveLength(2);
    expect(updated.body.totals).toContainEqual({ type: 'total', amount: 9900 });

    const done = await t.post('/ucp/v1/checkout-sessions/PO-1/complete', { confirm: true });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('completed');
    expect(done.body.order.id).toBe('PO-1');
    expect(done.body.order.permalink_url).toMatch(/\/ucp\/v1\/orders\/PO-1$/);
    const orders = p.requestsTo('POST /orders');
    expect(orders).toHaveLength(1);
    expect(orders[0].body).toMatchObject({
      ref: 'PO-1',
      lines: [
        { vendorSku: 'COLA', quantity: 2, unit: 'pack' },
        { vendorSku: 'WATER', quantity: 3, unit: 'each' },
      ],
      fulfillment: { method: 'shipping' },
    });
    const ev = await t.get('/ucp/v1/events?kind=checkout.completed');
    expect(ev.body.events[0].data.session_id).toBe('PO-1');

    const again = await t.post('/ucp/v1/checkout-sessions/PO-1/complete', { confirm: true });
    expectError(again, 409, 'invalid_state');
    expect(p.requestsTo('POST /orders')).toHaveLength(1);
    // Issue 29: a finished session is refused with UCP's error response alone (no other member), severity unrecoverable.
    const cancel = await t.post('/ucp/v1/checkout-sessions/PO-1/cancel');
    expectError(cancel, 409, 'invalid_state');
    expect(Object.keys(cancel.body).sort()).toEqual(['messages', 'ucp']);
    expect(cancel.body.messages[0]).toMatchObject({ severity: 'unrecoverable', content: expect.stringContaining('completed; its order is PO-1') });
  });

  it.each([['"true"', 'true'], ['1', 1], ['absent', undefined], ['false', false]])('confirm %s is 400 confirmation_required and calls nothing', async (_n, confirm) => {
    await readySession(t, `PO-confirm-${String(_n).replace(/\W/g, '')}`);
    const before = p.requestsTo('POST /orders').length;
    const res = await t.post(`/ucp/v1/checkout-sessions/PO-confirm-${String(_n).replace(/\W/g, '')}/complete`, confirm === undefined ? {} : { confirm });
    expectError(res, 400, 'confirmation_required');
    expect(p.requestsTo('POST /orders')).toHaveLength(before);
  });

  it('a machine id is 400 namespace_mismatch; two supply namespaces in one session too; unknown id 404', async () => {
    expectError(await t.post('/ucp/v1/checkout-sessions', { line_items: [{ item: { id: 'acme-machine:COLA' }, quantity: 1 }] }), 400, 'namespace_mismatch');
    expectError(
      await t.post('/ucp/v1/checkout-sessions', { line_items: [{ item: { id: `${NS}:COLA` }, quantity: 1 }, { item: { id: 'other-supply:X' }, quantity: 1 }] }),
      400,
      'namespace_mismatch',
    );
    expectError(await t.get('/ucp/v1/checkout-sessions/nope'), 404, 'not_found');
    expectError(await t.post('/ucp/v1/checkout-sessions', { line_items: [{ item: { id: `${NS}:COLA` }, quantity: 'two' }] }), 400, 'invalid');
  });

  it('unknown, sold-out items and a quantity off the increment keep the session incomplete with paths', async () => {
    const res = await t.post('/ucp/v1/checkout-sessions', {
      line_items: [{ item: { id: `${NS}:NOPE` }, quantity: 1 }, { item: { id: `${NS}:GONE` }, quantity: 1 }, { item: { id: `${NS}:DERIVED` }, quantity: 5 }],
      fulfillment: DEST,
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('incomplete');
    const paths = res.body.messages.map((m: { path: string }) => m.path);
    expect(paths).toEqual(expect.arrayContaining(['$.line_items[0].item.id', '$.line_items[1].item.id', '$.line_items[2].quantity']));
    const c = await t.post(`/ucp/v1/checkout-sessions/${res.body.id}/complete`, { confirm: true });
    expectError(c, 409, 'invalid_state');
    expect(p.requestsTo('POST /orders').filter((r) => (r.body as { ref: string }).ref === res.body.id)).toHaveLength(0);
  });

  it('a supplier refusal is 502 supplier_rejected and the session stays ready_for_complete; a retry places it', async () => {
    await readySession(t, 'PO-rej');
    p.fault('POST /orders', { status: 400, body: { ok: false, reason: 'account on hold' }, times: 1 });
    const res = await t.post('/ucp/v1/checkout-sessions/PO-rej/complete', { confirm: true });
    expectError(res, 502, 'supplier_rejected');
    expect(res.body.status).toBe('ready_for_complete');
    expect((await t.get('/ucp/v1/checkout-sessions/PO-rej')).body.status).toBe('ready_for_complete');
    expect(p.requestsTo('POST /orders').filter((r) => (r.body as { ref: string }).ref === 'PO-rej')).toHaveLength(1);
    const rejected = await t.get('/ucp/v1/events?kind=checkout.rejected');
    expect(rejected.body.events.some((e: { data: { session_id: string } }) => e.data.session_id === 'PO-rej')).toBe(true);
    const retry = await t.post('/ucp/v1/checkout-sessions/PO-rej/complete', { confirm: true });
    expect(retry.status).toBe(200);
    expect(retry.body.status).toBe('completed');
  });

  it('an unreachable supplier is 502 upstream_unreachable, called once, never retried; the session is ready again', async () => {
    await readySession(t, 'PO-down');
    p.fault('POST /orders', { destroy: true, times: 1 });
    const res = await t.post('/ucp/v1/checkout-sessions/PO-down/complete', { confirm: true });
    expectError(res, 502, 'upstream_unreachable');
    expect(res.body.messages.map((m: { code: string }) => m.code)).toContain('order_uncertain');
    expect(p.requestsTo('POST /orders').filter((r) => (r.body as { ref: string }).ref === 'PO-down')).toHaveLength(1);
    expect((await t.get('/ucp/v1/checkout-sessions/PO-down')).body.status).toBe('ready_for_complete');
  });

  it('cancel: no supplier call; twice is 409', async () => {
    await readySession(t, 'PO-cancel');
    const before = p.requests.length;
    const res = await t.post('/ucp/v1/checkout-sessions/PO-cancel/cancel');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('canceled');
    expect(p.requests.length).toBe(before);
    expectError(await t.post('/ucp/v1/checkout-sessions/PO-cancel/cancel'), 409, 'invalid_state');
    expectError(await t.post('/ucp/v1/checkout-sessions/PO-cancel/complete', { confirm: true }), 409, 'invalid_state');
    expectError(await t.put('/ucp/v1/checkout-sessions/PO-cancel', { fulfillment: DEST }), 409, 'invalid_state');
  });
});

describe('checkout guards', () => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    t = await supplierApp(p, { SERVICE_GUARDS: JSON.stringify({ ...GUARDS, budget: { perOrderFen: 10000, dailyFen: 15000, monthlyFen: 100000 } }) });
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });

  it('over the per-order budget: requires_escalation with a checkout_budget approval; approved, it is ready and completes', async () => {
    const res = await readySession(t, 'PO-big', [{ item: { id: `${NS}:COLA` }, quantity: 3, quantity_unit: { unit: 'BX' } }]); // 14400 fen
    expect(res.body.status).toBe('requires_escalation');
    expect(res.body.continue_url).toBeDefined();
    expect(res.body.messages.find((m: { code: string }) => m.code === 'approval_required').severity).toBe('requires_buyer_review');
    const c = await t.post('/ucp/v1/checkout-sessions/PO-big/complete', { confirm: true });
    expectError(c, 409, 'approval_required');
    expect(p.requestsTo('POST /orders')).toHaveLength(0);
    const list = await t.get('/ucp/v1/approvals?kind=checkout_budget');
    expect(list.body.approvals).toHaveLength(1);
    const approval = list.body.approvals[0];
    expect(approval.subject.session_id).toBe('PO-big');
    const resolved = await t.post(`/ucp/v1/approvals/${approval.id}`, { approved: true });
    expect(resolved.status).toBe(200);
    expect(resolved.body.approval.status).toBe('approved');
    expect((await t.get('/ucp/v1/checkout-sessions/PO-big')).body.status).toBe('ready_for_complete');
    const done = await t.post('/ucp/v1/checkout-sessions/PO-big/complete', { confirm: true });
    expect(done.status).toBe(200);
    expect(p.requestsTo('POST /orders')).toHaveLength(1);
  });

  it('what was really spent today counts: a second order passing the daily limit is escalated', async () => {
    // 14400 spent by PO-big; 4800 more passes 15000 a day.
    const res = await readySession(t, 'PO-daily', [{ item: { id: `${NS}:COLA` }, quantity: 1, quantity_unit: { unit: 'BX' } }]);
    expect(res.body.status).toBe('requires_escalation');
    expect(res.body.messages[0].content).toMatch(/daily/);
    // A small order that fits is ready.
    const small = await readySession(t, 'PO-small', [{ item: { id: `${NS}:WATER` }, quantity: 5 }]);
    expect(small.body.status).toBe('ready_for_complete');
  });

  it('a vendor on probation needs checkout_probation; hard no-go is unrecoverable and cannot complete', async () => {
    await t.put('/ucp/v1/admin/guards', { ...GUARDS, probationVendors: ['acme'], hardNoGo: { vendors: [], skus: [`${NS}:WATER`] } });
    const prob = await readySession(t, 'PO-prob', [{ item: { id: `${NS}:COLA` }, quantity: 1 }]);
    expect(prob.body.status).toBe('requires_escalation');
    expect((await t.get('/ucp/v1/approvals?kind=checkout_probation')).body.approvals[0].subject.session_id).toBe('PO-prob');
    const nogo = await readySession(t, 'PO-nogo', [{ item: { id: `${NS}:WATER` }, quantity: 1 }]);
    expect(nogo.body.status).toBe('incomplete');
    expect(nogo.body.messages).toContainEqual(expect.objectContaining({ code: 'hard_no_go', severity: 'unrecoverable', path: '$.line_items[0].item.id' }));
    expectError(await t.post('/ucp/v1/checkout-sessions/PO-nogo/complete', { confirm: true }), 409, 'invalid_state');
    await t.put('/ucp/v1/admin/guards', GUARDS);
  });
});

describe('checkout on the embedded database', () => {
  it('create, complete once, staging refuses a registered HTTP supplier', async () => {
    const p = await startFakePartner({ token: 'sup-token' });
    const t = await supplierApp(p, {}, 'embedded');
    try {
      await readySession(t, 'PO-e1');
      const done = await t.post('/ucp/v1/checkout-sessions/PO-e1/complete', { confirm: true });
      expect(done.status).toBe(200);
      expect(done.body.status).toBe('completed');
      expect(p.requestsTo('POST /orders')).toHaveLength(1);
    } finally {
      await t.close();
    }
    const s = await startTestApp({
      db: 'embedded',
      env: { SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: NS, baseUrl: p.url, token: p.token, capabilities: ['catalog', 'orders'] }]) },
    });
    try {
      await readySession(s, 'PO-stg');
      const res = await s.post('/ucp/v1/checkout-sessions/PO-stg/complete', { confirm: true });
      expectError(res, 409, 'staging_no_spend');
      expect(p.requestsTo('POST /orders')).toHaveLength(1);
    } finally {
      await s.close();
      await p.close();
    }
  }, 60000);
});
