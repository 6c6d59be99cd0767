import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SupplyCatalogService } from '../../src/supply-catalog/supply-catalog.service';
import { expectError } from '../support/envelope';
import { Fleet, startFleetWithApp } from '../support/fleet';
import { callTool, codesOf, mcpClient } from '../support/mcp-client';
import { GUARDS, ordersPosted } from '../support/money-fixtures';
import { BOTH_DATABASES, TestApp } from '../support/test-app';

/**
 * Issue 37, item 1, for replenishment runs (production fleet of test/support/fleet.ts, REST and MCP, both
 * databases): a run's approval names its machines, goods and units with a link to the run, and covers those very
 * lines. A run whose refused line was dropped after its approval needs a new approval before it is placed; the
 * purchase order it then sends is the one the new approval names.
 */
jest.setTimeout(120_000);

type Json = Record<string, any>;

describe.each(BOTH_DATABASES)('a run\'s approval covers its lines and shows them (%s)', (db) => {
  let fleet: Fleet;
  let t: TestApp;
  let mcp: Client;
  let close: () => Promise<void>;
  const approve = async (id: string) => (await t.post(`/ucp/v1/approvals/${id}`, { approved: true, resolver: { channel: 'dashboard' } }).expect(200)).body.approval as Json;

  beforeAll(async () => {
    ({ fleet, t, close } = await startFleetWithApp({}, db === 'embedded' ? 'embedded' : undefined));
    mcp = await mcpClient(t);
  });
  afterAll(async () => {
    await mcp?.close();
    await close?.();
  });

  it('shows machines, goods, units and the run; lines dropped after approval need a new approval (MCP place)', async () => {
    // acme lists the tea too (the default supplier, chosen first) but has none: its purchase order refuses that line.
    fleet.acme.state.catalog.push({ vendorSku: 'TEA', title: 'Green tea 500ml', packSize: 1, packPriceFen: 250, eachPriceFen: 250, stock: 0 });
    t.app.get(SupplyCatalogService).invalidate();
    const run = (await t.post('/ucp/v1/replenishment/runs?fulfiller=supply_checkout').expect(201)).body as Json;
    expect(run.status).toBe('ready');
    expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`, { confirm: true }), 409, 'invalid_state');

    await t.put('/ucp/v1/admin/guards', { ...GUARDS, budget: { ...GUARDS.budget, perOrderFen: 1000 } }).expect(200);
    try {
      // Now over budget: place asks for the approval, which shows what the run moves, in words.
      expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`, { confirm: true }), 409, 'approval_required');
      const first = (await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body as Json;
      expect(first.status).toBe('awaiting_approval');
      const asked = (await callTool(mcp, 'get_approval', { id: first.approval_id })).body.approval as Json;
      expect(asked.shows.link).toBe(`/ucp/v1/replenishment/runs/${run.id}`);
      expect(new Set(asked.shows.lines.map((l: Json) => l.machine))).toEqual(new Set(['Lobby', 'Gym']));
      expect(asked.shows.lines.map((l: Json) => l.good).sort()).toEqual(['Cola 330ml', 'Cola 330ml', 'Green tea 500ml']);
      expect(asked.shows.lines.every((l: Json) => Number.isInteger(l.units) && l.units > 0)).toBe(true);
      expect(asked.shows.headline).toMatch(/^Replenishment run: \d+ units of 2 goods for 2 machines from acme-supply, estimated ¥[\d,]+\.\d\d, over the per-order budget of ¥10\.00$/);
      expect(asked.shows.lines.find((l: Json) => l.machine === 'Lobby' && l.good === 'Green tea 500ml').text).toMatch(/^Lobby: \d+ units of Green tea 500ml/);
      expect(asked.subject.purchase_orders).toEqual([{ supplier: 'acme-supply', key: expect.stringMatching(/^po1:/) }]);

      // Approved: ready. The refused line is dropped afterwards: the approval covered the old lines only.
      await approve(first.approval_id);
      const dropped = await t.post(`/ucp/v1/replenishment/runs/${run.id}/drop-refused-lines`, { confirm: true }).set('Idempotency-Key', `drop-${run.id}`).expect(200);
      expect(dropped.body).toMatchObject({ status: 'ready', approval_id: null });
      const events = (await t.get('/ucp/v1/events?kind=replenishment.run&limit=50').expect(200)).body.events as Json[];
      expect(events.find((e) => e.data?.run_id === run.id && e.data.action === 'lines_dropped')?.reasoning).toContain(`approval ${first.approval_id} covered the old lines only`);

      // Place (MCP) asks again, for the new lines: nothing is sent.
      const again = await callTool(mcp, 'place_run', { meta: { 'idempotency-key': `place-${run.id}` }, id: run.id, run: { confirm: true } });
      expect(codesOf(again)).toContain('approval_required');
      expect(ordersPosted(fleet.acme, `${run.id}.acme-supply`)).toBe(0);
      const second = (await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body as Json;
      expect(second.approval_id).not.toBe(first.approval_id);
      const next = (await t.get(`/ucp/v1/approvals/${second.approval_id}`).expect(200)).body.approval as Json;
      expect(next.shows.lines.map((l: Json) => l.good)).toEqual(['Cola 330ml', 'Cola 330ml']);
      expect(next.subject.purchase_orders[0].key).not.toBe(asked.subject.purchase_orders[0].key);

      // Approved for the new lines: placed, the purchase order being the one it names.
      await approve(second.approval_id);
      const placed = await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`, { confirm: true }).expect(200);
      expect(placed.body.status).toBe('placed');
      expect(fleet.acme.state.orders[`${run.id}.acme-supply`].request).toMatchObject({ lines: [{ vendorSku: 'COLA', quantity: 1, unit: 'pack' }] });
    } finally {
      await t.put('/ucp/v1/admin/guards', GUARDS).expect(200);
    }
  });

  it('a run\'s purchase order sent elsewhere by hand is no longer the one its approval names: it needs its own approval', async () => {
    t.app.get(SupplyCatalogService).invalidate();
    await t.put('/ucp/v1/admin/guards', { ...GUARDS, budget: { ...GUARDS.budget, perOrderFen: 1000 } }).expect(200);
    try {
      // The tea now comes from beta (acme refused it); over budget, approved as drafted.
      const run = (await t.post('/ucp/v1/replenishment/runs?fulfiller=supply_checkout').expect(201)).body as Json;
      expect(run.status).toBe('awaiting_approval');
      expect(run.purchase_orders.map((o: Json) => o.supplier)).toEqual(['beta-supply']);
      await approve(run.approval_id);
      // beta refuses the first order: the purchase order stays open, the run ready.
      fleet.beta.fault('POST /orders', { status: 400, body: { ok: false, reason: 'closed today' }, times: 1 });
      const refused = await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`, { confirm: true });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      const po = `${run.id}.beta-supply`;
      expect((await t.get(`/ucp/v1/checkout-sessions/${po}`).expect(200)).body.status).toBe('ready_for_complete');

      // Sent elsewhere by hand (MCP): the run's approval named the restock to the machines, not this.
      const moved = await callTool(mcp, 'update_checkout', { id: po, checkout: { fulfillment: { methods: [{ type: 'shipping', destinations: [{ street_address: '99 Elsewhere Street', first_name: 'Mallory', phone_number: '13900000000' }] }] } } });
      expect(moved.body.status).toBe('requires_escalation');
      expect(codesOf(moved)).toContain('approval_required');
      const own = ((await t.get('/ucp/v1/approvals?kind=checkout_budget').expect(200)).body.approvals as Json[]).find((a) => a.subject.session_id === po)!;
      expect(own.shows.destination).toBe('shipped to 99 Elsewhere Street, for Mallory (phone 13900000000)');
      expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`, { confirm: true }), 409, 'approval_required');
      expect(fleet.beta.requestsTo('POST /orders')).toHaveLength(1); // only the refused one
    } finally {
      fleet.beta.clearFaults();
      await t.put('/ucp/v1/admin/guards', GUARDS).expect(200);
    }
  });
});
