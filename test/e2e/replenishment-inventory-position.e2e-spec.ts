import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DataSource } from 'typeorm';
import { expectError } from '../support/envelope';
import { callTool, codesOf, mcpClient } from '../support/mcp-client';
import { DemandCases, lineOf, seedDemandCases, setGuards } from '../support/replenishment-demand';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';

/**
 * Inventory position (issue 25, item 1), over REST and MCP on both databases: a placed run's units are on order, so
 * the next plan proposes nothing for its slots; a run drafted before it is refused (409 `run_superseded`, naming
 * it); receive ends on-order line by line (a short line records its shortfall); an operator closes a run that will
 * never arrive, and its units leave on-order.
 */
jest.setTimeout(120_000);

type Json = Record<string, any>;

describe.each(BOTH_DATABASES)('inventory position: nothing is ordered twice (%s)', (db) => {
  let t: TestApp;
  let mcp: Client;
  let slot: DemandCases['slot'];
  const plan = async () => (await t.get('/ucp/v1/replenishment/plan').expect(200)).body as Json & { slots: { slot_id: string }[] };
  const createRun = async () => (await t.post('/ucp/v1/replenishment/runs').expect(201)).body as Json;
  const receive = (id: string, body: unknown) => t.post(`/ucp/v1/replenishment/runs/${id}/receive`, body);

  beforeAll(async () => {
    t = await startTestApp({ ...(db === 'embedded' ? { db } : {}), env: { SERVICE_GUARDS: undefined } });
    await setGuards(t, 10_000_000);
    ({ slot } = await seedDemandCases(t));
    mcp = await mcpClient(t);
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  it('plan, run, place, plan again shows on_order and proposes nothing for those slots; receive; plan again', async () => {
    const first = await plan();
    for (const s of Object.values(slot)) expect(lineOf(first, s)).toMatchObject({ on_order: 0, on_order_runs: [] });
    expect(first.totals.slots_to_order).toBe(4);

    const run = await createRun();
    const stale = await createRun(); // drafted from the same plan, before the first run is placed
    expect((await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).expect(200)).body.status).toBe('placed');
    const ordered = Object.fromEntries((run.lines as Json[]).map((l) => [l.slot_id, l.ordered_each as number]));

    // Plan again: every unit of the placed run is on order, and nothing is proposed for its slots.
    const second = await plan();
    for (const s of Object.values(slot)) {
      const l = lineOf(second, s);
      expect(l.on_order).toBe(ordered[s]);
      expect(l.on_order_runs).toEqual([{ id: run.id, status: 'placed', units: ordered[s] }]);
      expect(l.quantity_each).toBe(Math.max(0, l.target - l.stock - l.on_order));
      expect(l.quantity_each).toBe(0);
    }
    expect(second.totals).toMatchObject({ slots_to_order: 0, units_each: 0, cost_estimate: { amount: 0, currency: 'CNY' } });
    const again = await createRun();
    expect(again.lines).toEqual([]);
    expect(again.messages.map((m: Json) => m.code)).toContain('nothing_to_order');

    // The run drafted before the place is refused, naming the run that ordered its slots; nothing is ordered.
    const refused = await t.post(`/ucp/v1/replenishment/runs/${stale.id}/place`);
    expectError(refused, 409, 'run_superseded');
    expect(refused.body.messages[0].content).toContain(run.id);
    expect((await t.get(`/ucp/v1/replenishment/runs/${stale.id}`).expect(200)).body.status).toBe('ready');

    // Line by line at the warehouse: slot A's units arrive into the depot; the other lines stay on order.
    const partial = await t.post(`/ucp/v1/replenishment/runs/${run.id}/arrivals`, { arrived: [{ slot_id: slot.A, quantity: ordered[slot.A] }] }).expect(200);
    expect(partial.body.status).toBe('placed');
    expect(partial.body.delivered).toEqual([expect.objectContaining({ slot_id: slot.A, quantity: ordered[slot.A], arrived: true, to_depot: ordered[slot.A], stock_before: null })]);
    expect(partial.body.lines.find((l: Json) => l.slot_id === slot.A).on_order).toBe(0);
    expect(partial.body.lines.find((l: Json) => l.slot_id === slot.B).on_order).toBe(ordered[slot.B]);
    const third = await plan();
    expect(lineOf(third, slot.A)).toMatchObject({ on_order: 0, on_order_runs: [] });
    expect(lineOf(third, slot.B).on_order).toBe(ordered[slot.B]);
    expectError(await receive(run.id, { delivered: [{ slot_id: slot.A, quantity: 1 }] }), 409, 'already_delivered');

    // The spec's receive: B short by 2 and C arrive into their slots; D, not listed, is closed with its whole
    // quantity as shortfall; the run is delivered in one call.
    const rest = await receive(run.id, {
      delivered: [
        { slot_id: slot.B, quantity: ordered[slot.B] - 2 },
        { slot_id: slot.C, quantity: ordered[slot.C] },
      ],
    }).expect(200);
    expect(rest.body.status).toBe('delivered');
    expect(rest.body.delivered.find((d: Json) => d.slot_id === slot.B)).toMatchObject({ quantity: ordered[slot.B] - 2, ordered_each: ordered[slot.B], shortfall: 2 });
    expect(rest.body.delivered.find((d: Json) => d.slot_id === slot.A)).toMatchObject({ quantity: ordered[slot.A], shortfall: 0, arrived: true });
    expect(rest.body.delivered.find((d: Json) => d.slot_id === slot.D)).toMatchObject({ quantity: 0, shortfall: ordered[slot.D], closed: true });

    // Plan again: nothing on order; the need is computed from the new stock and the depot alone (D is ordered again).
    const fourth = await plan();
    for (const s of Object.values(slot)) {
      const l = lineOf(fourth, s);
      expect(l).toMatchObject({ on_order: 0, on_order_runs: [] });
      expect(l.quantity_each + l.from_depot + l.depot_held + l.depot_incoming).toBe(Math.max(0, l.target - Math.max(0, l.stock)));
    }
    const events = (await t.get('/ucp/v1/events?kind=replenishment.run&limit=50').expect(200)).body.events as Json[];
    expect(events.filter((e) => e.data?.run_id === run.id).map((e) => e.data.action)).toEqual(expect.arrayContaining(['placed', 'arrived', 'delivered']));
  });

  it('over MCP: a placed run is on order; closing it (confirm, Idempotency-Key) takes its units off order with the reason recorded', async () => {
    // Empty a slot so the plan orders for it again.
    await t.app.get(DataSource).query(`UPDATE slots SET stock = 0 WHERE id = $1`, [slot.B]);
    const before = await callTool(mcp, 'get_replenishment_plan', {});
    const need = lineOf(before.body as never, slot.B).quantity_each as number;
    expect(need).toBeGreaterThan(0);
    const created = await callTool(mcp, 'create_run', {});
    const id = created.body.id as string;
    const placed = await callTool(mcp, 'place_run', { meta: { 'idempotency-key': `place-${id}` }, id, run: {} });
    expect(placed.body.status).toBe('placed');
    const onOrder = await callTool(mcp, 'get_replenishment_plan', {});
    expect(lineOf(onOrder.body as never, slot.B)).toMatchObject({ quantity_each: 0, on_order_runs: [{ id, status: 'placed' }] });

    const noConfirm = await callTool(mcp, 'close_run', { meta: { 'idempotency-key': `close-nc-${id}` }, id, closing: { reason: 'van broke down' } });
    expect(noConfirm.status).toBe(400);
    expect(codesOf(noConfirm)).toContain('confirmation_required');
    const closed = await callTool(mcp, 'close_run', { meta: { 'idempotency-key': `close-${id}` }, id, closing: { reason: 'supplier lost the shipment', confirm: true } });
    expect(closed.body).toMatchObject({ status: 'closed', note: 'supplier lost the shipment' });
    expect((closed.body.lines as Json[]).every((l) => l.on_order === 0)).toBe(true);
    expect((closed.body.delivered as Json[]).every((d) => d.closed === true && d.quantity === 0 && d.shortfall === d.ordered_each)).toBe(true);
    const replay = await callTool(mcp, 'close_run', { meta: { 'idempotency-key': `close-${id}` }, id, closing: { reason: 'supplier lost the shipment', confirm: true } });
    expect(replay.replayed).toBe(true);
    expect(replay.body).toEqual(closed.body);
    expectError(await t.post(`/ucp/v1/replenishment/runs/${id}/close`, { reason: 'again', confirm: true }), 409, 'already_delivered');
    expectError(await receive(id, { delivered: [{ slot_id: slot.B, quantity: 1 }] }), 409, 'already_delivered');

    const after = await callTool(mcp, 'get_replenishment_plan', {});
    expect(lineOf(after.body as never, slot.B)).toMatchObject({ on_order: 0, quantity_each: need });
    const events = (await t.get('/ucp/v1/events?kind=replenishment.run&limit=50').expect(200)).body.events as Json[];
    const ev = events.find((e) => e.data?.run_id === id && e.data.action === 'closed');
    expect(ev?.reasoning).toContain('supplier lost the shipment');
  });
});
