import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Fleet, startFleetApp, startFleetPartners } from '../support/fleet';
import { TestApp } from '../support/test-app';
import { DEST, GUARDS } from '../support/money-fixtures';
import { callTool, ClientGeneration, codesOf, mcpClient } from '../support/mcp-client';

/**
 * Issue 29: an agent's day over MCP as one script, run by every SDK client generation (the v2 line over protocol
 * 2026-07-28, on both databases; the last 1.x SDK, 2025-11-25; the one of May 2025, 2025-03-26): fleet, plan, run, the
 * approval wall (the agent cannot approve; the owner does), catalog, checkout with a destination, complete, order, a
 * price within the cap, a unit mistake refused, one over the cap parked, and a mistaken request withdrawn so the right
 * change can go through. Every answer is read in the tool's own terms. A file per client and database, each on its own
 * fleet and app (a file each stays under 20 s): mcp-agent-day-2026[-embedded].e2e-spec.ts,
 * mcp-agent-day-current.e2e-spec.ts (PostgreSQL) and mcp-agent-day-2025-embedded.e2e-spec.ts.
 */
jest.setTimeout(120_000);

type Json = Record<string, any>;
const APPROVER = 'owner-approver-token-29a7c3e1';
const AWAITING = 'com.example.svc/awaiting';
const key = (g: string, what: string) => `day-${g}-${what}`;

/** The day for one SDK client generation on one database, on its own fleet and app. */
export function agentDay(generation: ClientGeneration, db: 'postgres' | 'embedded'): void {
  describe(`an agent's day over MCP (${generation} SDK client, ${db} database)`, () => {
    let fleet: Fleet;
    let t: TestApp;
    let agent: Client;
    const call = (name: string, args: Record<string, unknown> = {}) => callTool(agent, name, args);

    beforeAll(async () => {
      fleet = await startFleetPartners();
      // The machine platform also takes prices; a run of the fleet's plan (8,400 fen) passes the 5,000 fen order budget.
      const vendors = (JSON.parse(fleet.env.SERVICE_HTTP_VENDORS) as Json[]).map((v) => (v.namespace === 'acme-machine' ? { ...v, capabilities: [...v.capabilities, 'pricing'] } : v));
      const guards = { ...GUARDS, budget: { ...GUARDS.budget, perOrderFen: 5000 } };
      t = await startFleetApp(fleet, { SERVICE_HTTP_VENDORS: JSON.stringify(vendors), SERVICE_GUARDS: JSON.stringify(guards), SERVICE_APPROVER_TOKEN: APPROVER }, undefined, db);
      agent = await mcpClient(t, { Authorization: `Bearer ${t.token}` }, generation);
    });
    afterAll(async () => {
      await agent?.close();
      await t?.close();
      await fleet?.close();
    });

    it('the tool list fits the 64 KB budget and names what each tool is for', async () => {
      const { tools } = await agent.listTools();
      expect(Buffer.byteLength(JSON.stringify(tools), 'utf8')).toBeLessThanOrEqual(64 * 1024);
      const withdraw = tools.find((x) => x.name === 'withdraw_approval')!;
      expect(withdraw.description).toMatch(/pending approval request made by mistake/);
      expect(tools.find((x) => x.name === 'update_prices')!.description).toMatch(/pending_approval/);
      expect(JSON.stringify(tools.find((x) => x.name === 'update_prices')!.inputSchema)).toContain('350 = ¥3.50');
    });

    it('runs the day: fleet, plan, run behind the approval wall, catalog, checkout, complete, order, prices, withdraw', async () => {
      // Fleet and plan.
      const fleetView = await call('get_fleet');
      expect(fleetView.isError).toBe(false);
      expect((fleetView.body.machines as Json[]).map((m) => m.id).sort()).toEqual(['FLEET-1', 'FLEET-2']);
      const plan = await call('get_replenishment_plan', { fulfiller: 'supply_checkout' });
      expect((plan.body.slots as Json[]).find((s) => s.slot_id === 'FLEET-1-COLA')).toMatchObject({ stock: 4 });

      // The run passes the budget: it waits for an owner, and the refusal names the approval and how to read it.
      const run = await call('create_run', { fulfiller: 'supply_checkout' });
      expect(run.status).toBe(201);
      expect(run.body.status).toBe('awaiting_approval');
      const runId = run.body.id as string;
      const place = () => call('place_run', { meta: { 'idempotency-key': key(generation, `place-${Math.random()}`) }, id: runId, run: { confirm: true } });
      const walled = await place();
      expect(walled).toMatchObject({ isError: true, status: 409 });
      expect(walled.body.messages[0]).toMatchObject({ code: 'approval_required', severity: 'requires_buyer_review' });
      const approvalId = (await call('get_run', { id: runId })).body.approval_id as string | undefined;
      const listed = (await call('list_approvals', { kind: 'replenishment_run' })).body.approvals as Json[];
      const runApproval = listed.find((a) => a.subject.run_id === runId)!;
      expect(walled.body.messages[0].content).toContain(runApproval.id);
      expect(walled.body.messages[0].content).toContain('get_approval');
      const result = (await agent.callTool({ name: 'place_run', arguments: { meta: { 'idempotency-key': key(generation, 'place-meta') }, id: runId, run: { confirm: true } } })) as Json;
      expect(result._meta[AWAITING]).toEqual([{ approval_id: runApproval.id, tool: 'get_approval', arguments: { id: runApproval.id } }]);
      if (approvalId) expect(approvalId).toBe(runApproval.id);
      // The agent cannot approve its own request; the owner does, with the approver credential.
      const self = await call('resolve_approval', { id: runApproval.id, resolution: { approved: true } });
      expect(self).toMatchObject({ isError: true, status: 403 });
      await t.raw.post(`/ucp/v1/approvals/${runApproval.id}`).set('Authorization', `Bearer ${APPROVER}`).send({ approved: true }).expect(200);
      const placed = await place();
      expect(placed.isError).toBe(false);
      expect(placed.body.status).toBe('placed');

      // Catalog: UCP products with a description (the title: the supplier gives none).
      const found = await call('search_catalog', { catalog: { query: 'water', filters: { namespace: 'acme-supply' } } });
      expect(found.body.products).toEqual([expect.objectContaining({ id: 'acme-supply:WATER', description: { plain: 'Water 550ml' } })]);

      // Checkout with a destination; a bad quantity is answered at the tool argument, in the service's words.
      const id = `DAY-${generation}`;
      const bad = await call('create_checkout', { checkout: { id, line_items: [{ item: { id: 'acme-supply:WATER' }, quantity: -1 }], fulfillment: DEST } });
      expect(bad).toMatchObject({ isError: true, status: 400 });
      expect(bad.body.messages[0]).toMatchObject({ path: '$.checkout.line_items[0].quantity', severity: 'recoverable' });
      expect(bad.body.messages[0].content).toMatch(/^quantity must be at least/);
      const created = await call('create_checkout', {
        checkout: { id, line_items: [{ item: { id: 'acme-supply:COLA' }, quantity: 1, quantity_unit: { unit: 'BX' } }, { item: { id: 'acme-supply:WATER' }, quantity: 3 }], fulfillment: DEST },
      });
      // 5,100 fen passes the 5,000 fen order budget: the session waits, and its message names the approval it asked for.
      expect(created.body.status).toBe('requires_escalation');
      const wait = created.body.messages.find((m) => m.code === 'approval_required')!;
      expect(wait.content).toMatch(/owner approval [0-9a-f-]{36} was requested and is pending \(read it with get_approval/);
      // Quantity 0 without a unit removes the box line (it used to answer success and change nothing): within budget now.
      const removed = await call('update_checkout', { id, checkout: { line_items: [{ item: { id: 'acme-supply:COLA' }, quantity: 0 }] } });
      expect((removed.body.line_items as Json[]).map((l) => l.item.id)).toEqual(['acme-supply:WATER']);
      expect(removed.body.status).toBe('ready_for_complete');

      // Complete once; the same key with another body is unrecoverable and names the argument.
      const done = await call('complete_checkout', { meta: { 'idempotency-key': key(generation, 'complete') }, id, checkout: { confirm: true } });
      expect(done.isError).toBe(false);
      expect(done.body.status).toBe('completed');
      const reused = await call('complete_checkout', { meta: { 'idempotency-key': key(generation, 'complete') }, id, checkout: { confirm: true, payment: { instruments: [] } } });
      expect(reused.isError).toBe(true);
      expect(reused.body.messages[0]).toMatchObject({ code: 'idempotency_key_mismatch', severity: 'unrecoverable', path: '$.meta["idempotency-key"]' });
      const order = await call('get_order', { id });
      expect(order.body).toMatchObject({ id, kind: 'purchase' });

      // Prices: within the cap goes through.
      const setPrice = (amount: number, k: string, extra: Json = {}) =>
        call('update_prices', { meta: { 'idempotency-key': key(generation, k) }, id: 'FLEET-1', prices: { confirm: true, prices: [{ item: { id: 'acme-machine:COLA' }, price: { amount, currency: 'CNY' }, ...extra }] } });
      const within = await setPrice(380, 'p-within');
      expect(within.body).toMatchObject({ status: 'updated', pending: [] });
      // 4 meant as ¥4 is 4 fen: refused at the amount, nothing parked.
      const mistake = await setPrice(4, 'p-mistake');
      expect(mistake).toMatchObject({ isError: true, status: 400 });
      expect(mistake.body.messages[0]).toMatchObject({ code: 'invalid', path: '$.prices.prices[0].price.amount' });
      expect(mistake.body.messages[0].content).toMatch(/350 = ¥3\.50/);
      // 3800 meant as ¥38 (it is ¥38.00, ten times the price): over the cap, parked for the owner with its approval id.
      const parked = await setPrice(3800, 'p-over');
      expect(parked.body.status).toBe('pending_approval');
      const parkedId = (parked.body.pending as Json[])[0].approval_id as string;
      expect(parked.body.messages.find((m) => m.code === 'approval_required')!.content).toContain(parkedId);
      // The parked request blocks the item; the agent withdraws its own mistake (no approver needed) and sends the right price.
      const blocked = await setPrice(390, 'p-blocked');
      expect(blocked.body).toMatchObject({ status: 'pending_approval', pending: [{ approval_id: parkedId }] });
      const withdrawn = await call('withdraw_approval', { id: parkedId, withdrawal: { reason: 'sent 3800 meaning 380 fen' } });
      expect(withdrawn.isError).toBe(false);
      expect(withdrawn.body.approval).toMatchObject({ status: 'rejected', resolver: { channel: 'withdrawn', credential: 'operator', reason: 'sent 3800 meaning 380 fen' } });
      expect(codesOf(await call('withdraw_approval', { id: parkedId, withdrawal: { reason: 'again' } }))).toEqual(['already_resolved']);
      const right = await setPrice(390, 'p-right');
      expect(right.body).toMatchObject({ status: 'updated', updated: [{ item: { id: 'acme-machine:COLA' }, price: { amount: 390, currency: 'CNY' } }] });
      const events = (await call('list_events', { kind: 'approval.resolved' })).body.events as Json[];
      expect(events.find((e) => e.data?.approval_id === parkedId && e.data?.withdrawn === true)).toBeDefined();
    });
  });
}
