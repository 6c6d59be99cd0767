import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expectError } from '../support/envelope';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { callTool, codesOf, mcpClient } from '../support/mcp-client';
import { GUARDS, NS, ordersPosted, supplierApp } from '../support/money-fixtures';
import { BOTH_DATABASES, TestApp } from '../support/test-app';

/**
 * Issue 37, item 1, for purchase orders (the security review's first finding), on both databases, REST and MCP: an
 * owner's approval covers the supplier, the lines, their prices and the fulfillment (method and destination). A
 * destination changed after the approval needs a new approval before anything reaches the supplier; a pending
 * approval asked for the old destination is withdrawn. The approval shows the destination in words.
 */
jest.setTimeout(120_000);

type Json = Record<string, any>;
const PICKUP = { methods: [{ type: 'pickup', destinations: [{ street_address: '1 Road', first_name: 'Li', phone_number: '13800000000' }] }] };
const ELSEWHERE = { methods: [{ type: 'shipping', destinations: [{ street_address: '99 Elsewhere Street', first_name: 'Mallory', phone_number: '13900000000' }] }] };
// 30 boxes of cola at 4,800 fen: 144,000 fen, over the per-order budget of 100,000 fen.
const LINES = [{ item: { id: `${NS}:COLA` }, quantity: 30, quantity_unit: { unit: 'BX' } }];

describe.each(BOTH_DATABASES)('a purchase\'s approval covers its destination (%s)', (db) => {
  let p: FakePartner;
  let t: TestApp;
  let mcp: Client;
  const pending = async (id: string) => ((await t.get('/ucp/v1/approvals?status=all&kind=checkout_budget').expect(200)).body.approvals as Json[]).filter((a) => a.subject.session_id === id);
  const approve = (id: string) => t.post(`/ucp/v1/approvals/${id}`, { approved: true, resolver: { channel: 'dashboard' } }).expect(200);

  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    t = await supplierApp(p, { SERVICE_GUARDS: JSON.stringify(GUARDS) }, db === 'embedded' ? 'embedded' : undefined);
    mcp = await mcpClient(t);
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
    await p?.close();
  });

  it('approved for pickup at 1 Road, then sent elsewhere (REST): a new approval is needed, nothing reaches the supplier', async () => {
    const id = `PO-dest-${db}`;
    const created = await t.post('/ucp/v1/checkout-sessions', { id, line_items: LINES, fulfillment: PICKUP }).expect(201);
    expect(created.body).toMatchObject({ status: 'requires_escalation' });
    const [first] = await pending(id);
    // What the owner reads: the destination, the lines and the total, in words.
    expect(first.shows).toMatchObject({
      headline: `Purchase order over budget: 1 line from ${NS} for ¥1,440.00, picked up at 1 Road, for Li (phone 13800000000)`,
      destination: 'picked up at 1 Road, for Li (phone 13800000000)',
      supplier: NS,
      total_fen: 144000,
      link: `/ucp/v1/checkout-sessions/${id}`,
      lines: [{ good: 'Cola 330ml', item_id: `${NS}:COLA`, quantity: 30, unit: 'BX', amount_fen: 144000, text: '30 boxes of Cola 330ml at ¥48.00 = ¥1,440.00' }],
    });
    await approve(first.id);
    expect((await t.get(`/ucp/v1/checkout-sessions/${id}`).expect(200)).body.status).toBe('ready_for_complete');

    // The operator changes the destination (another address and name): the approval no longer covers the order.
    const moved = await t.put(`/ucp/v1/checkout-sessions/${id}`, { fulfillment: ELSEWHERE }).expect(200);
    expect(moved.body.status).toBe('requires_escalation');
    expect(moved.body.messages.map((m: Json) => m.code)).toContain('approval_required');
    expectError(await t.post(`/ucp/v1/checkout-sessions/${id}/complete`, { confirm: true }).set('Idempotency-Key', `c1-${id}`), 409, 'approval_required');
    expect(ordersPosted(p, id)).toBe(0);
    const second = (await pending(id)).find((a) => a.status === 'pending')!;
    expect(second.id).not.toBe(first.id);
    expect(second.shows.destination).toBe('shipped to 99 Elsewhere Street, for Mallory (phone 13900000000)');

    // Back to the approved destination: the first approval covers exactly that again; the second is withdrawn.
    const back = await t.put(`/ucp/v1/checkout-sessions/${id}`, { fulfillment: PICKUP }).expect(200);
    expect(back.body.status).toBe('ready_for_complete');
    expect((await t.get(`/ucp/v1/approvals/${second.id}`).expect(200)).body.approval).toMatchObject({ status: 'rejected', resolver: { channel: 'withdrawn' } });

    // Elsewhere again, approved for it: the supplier receives the destination the owner approved.
    await t.put(`/ucp/v1/checkout-sessions/${id}`, { fulfillment: ELSEWHERE }).expect(200);
    const third = (await pending(id)).find((a) => a.status === 'pending')!;
    expect(third.shows.destination).toContain('99 Elsewhere Street');
    await approve(third.id);
    const done = await t.post(`/ucp/v1/checkout-sessions/${id}/complete`, { confirm: true }).set('Idempotency-Key', `c2-${id}`).expect(200);
    expect(done.body.status).toBe('completed');
    expect(p.state.orders[id].request.fulfillment).toEqual({ method: 'shipping', destination: ELSEWHERE.methods[0].destinations[0] });
  });

  it('a pending approval asked for one destination is withdrawn when it changes (MCP): the owner can no longer approve it', async () => {
    const id = `PO-mcp-${db}`;
    const created = await callTool(mcp, 'create_checkout', { meta: {}, checkout: { id, line_items: LINES, fulfillment: PICKUP } });
    expect(created.body.status).toBe('requires_escalation');
    const [asked] = await pending(id);
    expect(asked.status).toBe('pending');
    const viaMcp = await callTool(mcp, 'get_approval', { id: asked.id });
    expect((viaMcp.body.approval as Json).shows.destination).toBe('picked up at 1 Road, for Li (phone 13800000000)');

    const moved = await callTool(mcp, 'update_checkout', { id, checkout: { fulfillment: ELSEWHERE } });
    expect(moved.body.status).toBe('requires_escalation');
    expect(codesOf(moved)).toContain('approval_required');
    const old = (await callTool(mcp, 'get_approval', { id: asked.id })).body.approval as Json;
    expect(old).toMatchObject({ status: 'rejected', resolver: { channel: 'withdrawn' } });
    expectError(await t.post(`/ucp/v1/approvals/${asked.id}`, { approved: true, resolver: { channel: 'dashboard' } }), 409, 'already_resolved');
    const current = (await pending(id)).filter((a) => a.status === 'pending');
    expect(current).toHaveLength(1);
    expect(current[0].shows.destination).toContain('99 Elsewhere Street');
    const refused = await callTool(mcp, 'complete_checkout', { meta: { 'idempotency-key': `c-${id}` }, id, checkout: { confirm: true } });
    expect(codesOf(refused)).toContain('approval_required');
    expect(ordersPosted(p, id)).toBe(0);
  });

  it('a changed quantity after approval asks again, and the new approval shows the new line (REST)', async () => {
    const id = `PO-qty-${db}`;
    await t.post('/ucp/v1/checkout-sessions', { id, line_items: LINES, fulfillment: PICKUP }).expect(201);
    const [first] = await pending(id);
    await approve(first.id);
    const more = await t.put(`/ucp/v1/checkout-sessions/${id}`, { line_items: [{ item: { id: `${NS}:COLA` }, quantity: 31, quantity_unit: { unit: 'BX' } }] }).expect(200);
    expect(more.body.status).toBe('requires_escalation');
    const asked = (await pending(id)).find((a) => a.status === 'pending')!;
    expect(asked.shows.lines[0]).toMatchObject({ quantity: 31, text: '31 boxes of Cola 330ml at ¥48.00 = ¥1,488.00' });
  });
});
