import { expectEnvelope, expectError } from '../support/envelope';
import { TestApp } from '../support/test-app';
import { machineApp, slotRow } from '../support/money-fixtures';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';

describe('price changes', () => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'm-token' });
    t = await machineApp(p);
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });

  it('within the cap goes through in one POST /prices; over the cap is parked as one approval per item and changes nothing', async () => {
    const res = await t.put('/ucp/v1/locations/loc-1/prices', {
      confirm: true,
      prices: [
        { item: { id: 'acme-machine:A1' }, price: { amount: 400, currency: 'CNY' } },
        { item: { id: 'acme-machine:B2' }, price: { amount: 900, currency: 'CNY' } },
      ],
    });
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 'success');
    expect(res.body.location).toBe('loc-1');
    expect(res.body.updated).toEqual([{ item: { id: 'acme-machine:A1' }, previous: { amount: 350, currency: 'CNY' }, price: { amount: 400, currency: 'CNY' } }]);
    const msg = res.body.messages.find((m: { code: string }) => m.code === 'approval_required');
    expect(msg).toMatchObject({ severity: 'requires_buyer_review', path: '$.prices[1]' });
    expect(res.body.actions).toHaveLength(1);
    const calls = p.requestsTo('POST /prices');
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ locationId: 'loc-1', prices: [{ vendorSku: 'A1', priceFen: 400 }] });
    expect(await slotRow(t.databaseUrl!, 'loc-1-B2')).toEqual({ price_fen: '500', price_locked: true });
    expect((await slotRow(t.databaseUrl!, 'loc-1-A1')).price_fen).toBe('400');

    const approvalId = res.body.actions[0].approval_id;
    const approval = (await t.get(`/ucp/v1/approvals/${approvalId}`)).body.approval;
    expect(approval).toMatchObject({ kind: 'price_change', status: 'pending', location: 'loc-1' });

    // A chat resolver that is not an admin: 403 and nothing changes.
    const forbidden = await t.post(`/ucp/v1/approvals/${approvalId}`, { approved: true, resolver: { channel: 'chat_tool', chat_id: 'ops', sender_id: 'intern' } });
    expectError(forbidden, 403, 'forbidden');
    const badChat = await t.post(`/ucp/v1/approvals/${approvalId}`, { approved: true, resolver: { channel: 'chat_tool', chat_id: 'random', sender_id: 'boss' } });
    expectError(badChat, 403, 'forbidden');
    expect(p.requestsTo('POST /prices')).toHaveLength(1);
    expect((await t.get(`/ucp/v1/approvals/${approvalId}`)).body.approval.status).toBe('pending');

    const ok = await t.post(`/ucp/v1/approvals/${approvalId}`, { approved: true, resolver: { channel: 'chat_tool', chat_id: 'ops', sender_id: 'boss' } });
    expect(ok.status).toBe(200);
    expect(ok.body.approval.status).toBe('approved');
    expect(ok.body.approval.resolver).toEqual({ channel: 'chat_tool', credential: 'operator', chat_id: 'ops', sender_id: 'boss' });
    expect(p.requestsTo('POST /prices')).toHaveLength(2);
    expect(p.requestsTo('POST /prices')[1].body).toEqual({ locationId: 'loc-1', prices: [{ vendorSku: 'B2', priceFen: 900 }] });
    expect(await slotRow(t.databaseUrl!, 'loc-1-B2')).toEqual({ price_fen: '900', price_locked: false });
    expectError(await t.post(`/ucp/v1/approvals/${approvalId}`, { approved: false }), 409, 'already_resolved');

    const changed = await t.get('/ucp/v1/events?kind=price.changed');
    expect(changed.body.events.length).toBeGreaterThanOrEqual(2);
    const listed = await t.get('/ucp/v1/approvals?status=approved&kind=price_change');
    expect(listed.body.approvals.map((a: { id: string }) => a.id)).toContain(approvalId);
    expect((await t.get('/ucp/v1/approvals')).body.approvals.map((a: { id: string }) => a.id)).not.toContain(approvalId);
  });

  it('a rejected price change unlocks the slot and never calls the platform', async () => {
    const res = await t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices: [{ item: { id: 'acme-machine:C3' }, price: { amount: 2000, currency: 'CNY' } }] });
    expect(res.body.updated).toEqual([]);
    const before = p.requestsTo('POST /prices').length;
    expect(before).toBe(2);
    const id = res.body.actions[0].approval_id;
    const r = await t.post(`/ucp/v1/approvals/${id}`, { approved: false });
    expect(r.body.approval.status).toBe('rejected');
    expect(p.requestsTo('POST /prices')).toHaveLength(before);
    expect(await slotRow(t.databaseUrl!, 'loc-1-C3')).toEqual({ price_fen: '1000', price_locked: false });
  });

  it('refusals: confirm, namespaces, capability, unknown location and slot; nothing reaches the platform', async () => {
    const before = p.requestsTo('POST /prices').length;
    const line = (id: string) => [{ item: { id }, price: { amount: 360, currency: 'CNY' } }];
    expectError(await t.put('/ucp/v1/locations/loc-1/prices', { confirm: 'true', prices: line('acme-machine:A1') }), 400, 'confirmation_required');
    expectError(await t.put('/ucp/v1/locations/loc-1/prices', { confirm: 1, prices: line('acme-machine:A1') }), 400, 'confirmation_required');
    expectError(await t.put('/ucp/v1/locations/loc-1/prices', { prices: line('acme-machine:A1') }), 400, 'confirmation_required');
    expectError(await t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices: [] }), 400, 'invalid');
    expectError(await t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices: line('acme-supply:A1') }), 400, 'namespace_mismatch');
    expectError(await t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices: line('beta-machine:A1') }), 400, 'namespace_mismatch');
    expectError(await t.put('/ucp/v1/locations/loc-2/prices', { confirm: true, prices: line('beta-machine:A1') }), 400, 'namespace_unsupported');
    expectError(await t.put('/ucp/v1/locations/nowhere/prices', { confirm: true, prices: line('acme-machine:A1') }), 404, 'not_found');
    expectError(await t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices: line('acme-machine:ZZ') }), 400, 'invalid');
    expectError(await t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices: [{ item: { id: 'acme-machine:A1' }, price: { amount: 3.5, currency: 'CNY' } }] }), 400, 'invalid');
    expect(p.requestsTo('POST /prices')).toHaveLength(before);
  });

  it('a platform failure is 502, never a silent success', async () => {
    p.fault('POST /prices', { status: 503, times: 1 });
    const res = await t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices: [{ item: { id: 'acme-machine:A1' }, price: { amount: 410, currency: 'CNY' } }] });
    expectError(res, 502, 'upstream_unreachable');
    expect((await slotRow(t.databaseUrl!, 'loc-1-A1')).price_fen).toBe('400');
  });

  it('Idempotency-Key: a replay returns the stored answer without calling the platform; another body is 409', async () => {
    const body = { confirm: true, prices: [{ item: { id: 'acme-machine:A1' }, price: { amount: 420, currency: 'CNY' } }] };
    const first = await t.put('/ucp/v1/locations/loc-1/prices', body).set('Idempotency-Key', 'price-k1');
    expect(first.status).toBe(200);
    const n = p.requestsTo('POST /prices').length;
    const replay = await t.put('/ucp/v1/locations/loc-1/prices', body).set('Idempotency-Key', 'price-k1');
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(p.requestsTo('POST /prices')).toHaveLength(n);
    const other = await t.put('/ucp/v1/locations/loc-1/prices', { ...body, prices: [{ item: { id: 'acme-machine:A1' }, price: { amount: 430, currency: 'CNY' } }] }).set('Idempotency-Key', 'price-k1');
    expectError(other, 409, 'idempotency_key_mismatch');
    const elsewhere = await t.put('/ucp/v1/locations/loc-2/prices', body).set('Idempotency-Key', 'price-k1');
    expectError(elsewhere, 409, 'idempotency_key_mismatch');
    expect(p.requestsTo('POST /prices')).toHaveLength(n);
  });
});
