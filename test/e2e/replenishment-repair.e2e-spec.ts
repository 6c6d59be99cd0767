import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SupplyCatalogService } from '../../src/supply-catalog/supply-catalog.service';
import { expectError } from '../support/envelope';
import { Fleet, startFleetWithApp } from '../support/fleet';
import { callTool, codesOf, mcpClient } from '../support/mcp-client';
import { GUARDS, ordersPosted } from '../support/money-fixtures';
import { BOTH_DATABASES, TestApp } from '../support/test-app';

/**
 * Failed placements and unavailable goods (issue 25, item 3), on the production fleet of test/support/fleet.ts over
 * REST and MCP, on both databases: a run not placed yet is cancelled (its pending approval withdrawn, nothing sent);
 * a supply-checkout run whose purchase order was refused for a line drops that line and places the rest; the
 * supplier that refused a good is passed over until its catalog offers it again (next candidate, or `not_carried`).
 */
jest.setTimeout(120_000);

type Json = Record<string, any>;

describe.each(BOTH_DATABASES)('repairing runs (%s)', (db) => {
  let fleet: Fleet;
  let t: TestApp;
  let mcp: Client;
  let close: () => Promise<void>;
  const create = async () => (await t.post('/ucp/v1/replenishment/runs?fulfiller=supply_checkout').expect(201)).body as Json;
  const plan = async () => (await t.get('/ucp/v1/replenishment/plan?fulfiller=supply_checkout').expect(200)).body as Json;
  const tea = (p: Json) => (p.slots as Json[]).find((s) => s.slot_id === 'FLEET-1-TEA')!;
  /** The suppliers' catalogs are read again (the cache would otherwise answer for up to a minute). */
  const reread = () => t.app.get(SupplyCatalogService).invalidate();

  beforeAll(async () => {
    ({ fleet, t, close } = await startFleetWithApp({}, db === 'embedded' ? 'embedded' : undefined));
    mcp = await mcpClient(t);
  });
  afterAll(async () => {
    await mcp?.close();
    await close?.();
  });

  it('cancels a run waiting for approval: the approval is withdrawn, nothing is sent, it can no longer be placed', async () => {
    await t.put('/ucp/v1/admin/guards', { ...GUARDS, budget: { ...GUARDS.budget, perOrderFen: 1000 } }).expect(200);
    try {
      const run = await create();
      expect(run.status).toBe('awaiting_approval');
      expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/cancel`, { reason: 'too dear' }), 400, 'confirmation_required');
      const res = await t.post(`/ucp/v1/replenishment/runs/${run.id}/cancel`, { reason: 'too dear this week', confirm: true }).set('Idempotency-Key', `cancel-${run.id}`).expect(200);
      expect(res.body).toMatchObject({ status: 'cancelled', note: 'too dear this week' });
      const again = await t.post(`/ucp/v1/replenishment/runs/${run.id}/cancel`, { reason: 'too dear this week', confirm: true }).set('Idempotency-Key', `cancel-${run.id}`).expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/cancel`, { confirm: true }), 409, 'invalid_state');
      const approval = (await t.get(`/ucp/v1/approvals/${run.approval_id}`).expect(200)).body.approval;
      expect(approval).toMatchObject({ status: 'rejected', resolver: { channel: 'withdrawn' } });
      expectError(await t.post(`/ucp/v1/approvals/${run.approval_id}`, { approved: true, resolver: { channel: 'dashboard' } }), 409, 'already_resolved');
      expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`, { confirm: true }), 409, 'invalid_state');
      expect(fleet.acme.requestsTo('POST /orders').length + fleet.beta.requestsTo('POST /orders').length).toBe(0);
      const events = (await t.get('/ucp/v1/events?kind=replenishment.run&limit=50').expect(200)).body.events as Json[];
      expect(events.find((e) => e.data?.run_id === run.id && e.data.action === 'cancelled')?.reasoning).toContain('too dear this week');
    } finally {
      await t.put('/ucp/v1/admin/guards', GUARDS).expect(200);
    }
  });

  it('a refused line: the supplier is passed over, the line is dropped (MCP) and the rest placed; its catalog offering it again brings it back', async () => {
    // acme now lists the tea too (the default supplier, chosen first), but has none.
    fleet.acme.state.catalog.push({ vendorSku: 'TEA', title: 'Green tea 500ml', packSize: 1, packPriceFen: 250, eachPriceFen: 250, stock: 0 });
    reread();
    expect(tea(await plan()).supply).toMatchObject({ namespace: 'acme-supply', chosen_because: 'default_supplier' });
    const run = await create();
    expect(run.purchase_orders.map((p: Json) => p.supplier)).toEqual(['acme-supply']);
    // Its purchase order is refused for the tea line (item_unavailable); nothing is sent.
    expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`, { confirm: true }), 409, 'invalid_state');
    expect(ordersPosted(fleet.acme, `${run.id}.acme-supply`)).toBe(0);
    const session = (await t.get(`/ucp/v1/checkout-sessions/${run.id}.acme-supply`).expect(200)).body;
    expect(session.messages.map((m: Json) => m.code)).toContain('item_unavailable');

    // The next plan passes over acme for the tea: the next candidate supplier (beta) is chosen.
    expect(tea(await plan()).supply).toMatchObject({ namespace: 'beta-supply', chosen_because: 'lowest_each_price' });

    // Drop the refused line (MCP: confirm and an Idempotency-Key), then place the rest.
    const noConfirm = await callTool(mcp, 'drop_refused_lines', { meta: { 'idempotency-key': `drop-nc-${run.id}` }, id: run.id, drop: {} });
    expect(codesOf(noConfirm)).toContain('confirmation_required');
    const dropped = await callTool(mcp, 'drop_refused_lines', { meta: { 'idempotency-key': `drop-${run.id}` }, id: run.id, drop: { confirm: true } });
    expect(dropped.status).toBe(200);
    expect((dropped.body.lines as Json[]).map((l) => l.slot_id).sort()).toEqual(['FLEET-1-COLA', 'FLEET-2-COLA']);
    expect(dropped.body.total_cost_estimate).toEqual({ amount: 4800, currency: 'CNY' });
    const again = await callTool(mcp, 'drop_refused_lines', { meta: { 'idempotency-key': `drop-${run.id}` }, id: run.id, drop: { confirm: true } });
    expect(again.replayed).toBe(true);
    expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/drop-refused-lines`, { confirm: true }), 409, 'invalid_state'); // nothing refused now
    const placed = await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`, { confirm: true }).expect(200);
    expect(placed.body.status).toBe('placed');
    expect(fleet.acme.state.orders[`${run.id}.acme-supply`].request).toMatchObject({ lines: [{ vendorSku: 'COLA', quantity: 1, unit: 'pack' }] });

    // beta has none either: refused there too, nobody is left to sell it (not_carried).
    const b = fleet.beta.state.catalog.find((p) => (p as Json).vendorSku === 'BT-9') as Json;
    b.stock = 0;
    reread();
    const teaRun = await create();
    expect(teaRun.lines.map((l: Json) => l.slot_id)).toEqual(['FLEET-1-TEA']);
    expectError(await t.post(`/ucp/v1/replenishment/runs/${teaRun.id}/place`, { confirm: true }), 409, 'invalid_state');
    const none = await plan();
    expect(tea(none).supply).toBeNull();
    expect(none.messages.map((m: Json) => m.code)).toContain('not_carried');
    // Cancelled over MCP: its opened purchase order is cancelled with it.
    const cancelled = await callTool(mcp, 'cancel_run', { meta: { 'idempotency-key': `cancel-${teaRun.id}` }, id: teaRun.id, cancel: { reason: 'nobody has tea', confirm: true } });
    expect(cancelled.body.status).toBe('cancelled');
    expect((await t.get(`/ucp/v1/checkout-sessions/${teaRun.id}.beta-supply`).expect(200)).body.status).toBe('canceled');

    // beta's catalog, read after the refusal, offers it again: chosen again. acme's still lists none: still passed over.
    b.stock = 80;
    reread();
    expect(tea(await plan()).supply).toMatchObject({ namespace: 'beta-supply' });
  });
});
