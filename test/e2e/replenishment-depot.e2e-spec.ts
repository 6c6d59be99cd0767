import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DataSource } from 'typeorm';
import { expectError } from '../support/envelope';
import { callTool, codesOf, mcpClient } from '../support/mcp-client';
import { DemandCases, LOC, lineOf, seedDemandCases, seedSlot, setGuards } from '../support/replenishment-demand';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';

/**
 * The depot (issue 25, item 2), over REST and MCP on both databases: a delivery's units beyond a slot's capacity go
 * to the depot; the plan serves the slot from the depot before buying (`from_depot`, costing nothing); a fill moves
 * units depot → slot (confirm, Idempotency-Key); a stock count sets the depot with a reason and an event.
 */
jest.setTimeout(120_000);

type Json = Record<string, any>;

describe.each(BOTH_DATABASES)('the depot (%s)', (db) => {
  let t: TestApp;
  let ds: DataSource;
  let mcp: Client;
  let slot: DemandCases['slot'];
  let skuA: string;
  const plan = async () => (await t.get('/ucp/v1/replenishment/plan').expect(200)).body as Json & { slots: { slot_id: string }[] };
  const depot = async () => (await t.get('/ucp/v1/depot').expect(200)).body as Json;
  const stockOf = async (id: string) => ((await ds.query(`SELECT stock FROM slots WHERE id = $1`, [id])) as { stock: number }[])[0].stock;

  beforeAll(async () => {
    t = await startTestApp({ ...(db === 'embedded' ? { db } : {}), env: { SERVICE_GUARDS: undefined } });
    ds = t.app.get(DataSource);
    await setGuards(t, 10_000_000);
    ({ slot } = await seedDemandCases(t));
    skuA = ((await ds.query(`SELECT sku_id FROM slots WHERE id = $1`, [slot.A])) as { sku_id: string }[])[0].sku_id;
    mcp = await mcpClient(t);
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  it('units beyond capacity go to the depot; the plan serves from it before buying; a fill moves them into the slot', async () => {
    expect(await depot()).toMatchObject({ depot: { id: 'depot-main' }, stock: [], totals: { goods: 0, units: 0 } });
    const run = (await t.post('/ucp/v1/replenishment/runs').expect(201)).body as Json;
    await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).expect(200);
    // Slot A holds 4 of 20: 30 arrive, 16 fit; the depot takes the rest up to what the line ordered (issue 37).
    const ordered = (run.lines as Json[]).find((l) => l.slot_id === slot.A)!.ordered_each as number;
    const got = await t.post(`/ucp/v1/replenishment/runs/${run.id}/receive`, { delivered: [{ slot_id: slot.A, quantity: 30 }] }).expect(200);
    const booked = Math.min(14, Math.max(0, ordered - 16));
    expect(got.body.delivered[0]).toMatchObject({ slot_id: slot.A, quantity: 30, stock_before: 4, stock_after: 20 });
    expect(got.body.delivered[0].to_depot ?? 0).toBe(booked);
    expect(got.body.delivered[0].not_booked ?? 0).toBe(14 - booked);
    // One receive delivers the run: the lines it did not list are closed with their shortfall.
    expect(got.body.status).toBe('delivered');
    // The 14 units are in the van: a person counts them in with the reason.
    if (booked < 14) {
      await t.post('/ucp/v1/depot/counts', { counts: [{ item: { id: skuA }, quantity: 14 }], reason: 'the over-delivery is in the van', confirm: true }).expect(200);
    }
    const held = await depot();
    expect(held.stock).toEqual([{ item: { id: skuA }, title: expect.any(String), quantity: 14, updated_at: expect.stringMatching(/\+08:00$/) }]);
    expect(held.totals).toEqual({ goods: 1, units: 14 });

    // A sells down to 2: the plan takes what it needs from the depot first and buys only the rest.
    await ds.query(`UPDATE slots SET stock = 2 WHERE id = $1`, [slot.A]);
    const p = await plan();
    const a = lineOf(p, slot.A);
    const need = a.target - 2;
    expect(a.from_depot).toBe(Math.min(need, 14));
    expect(a.quantity_each).toBe(need - a.from_depot);
    expect(p.totals.from_depot_each).toBe(a.from_depot);
    if (a.quantity_each === 0) expect(a.cost_estimate).toEqual({ amount: 0, currency: 'CNY' });

    // The fill (MCP): confirm and an Idempotency-Key; a replay moves nothing twice.
    const noConfirm = await callTool(mcp, 'fill_from_depot', { meta: { 'idempotency-key': `fill-nc-${db}` }, fill: { fills: [{ slot_id: slot.A, quantity: 1 }] } });
    expect(noConfirm.status).toBe(400);
    expect(codesOf(noConfirm)).toContain('confirmation_required');
    const tooMany = await callTool(mcp, 'fill_from_depot', { meta: { 'idempotency-key': `fill-tm-${db}` }, fill: { fills: [{ slot_id: slot.A, quantity: 15 }], confirm: true } });
    expect(tooMany.status).toBe(409);
    expect(codesOf(tooMany)).toContain('depot_insufficient');
    // A slot without room for it: 10 + 14 > 20.
    await ds.query(`UPDATE slots SET stock = 10 WHERE id = $1`, [slot.A]);
    expectError(await t.post('/ucp/v1/depot/fill', { fills: [{ slot_id: slot.A, quantity: 14 }], confirm: true }), 400, 'invalid');
    await ds.query(`UPDATE slots SET stock = 2 WHERE id = $1`, [slot.A]);
    expectError(await t.post('/ucp/v1/depot/fill', { fills: [{ slot_id: 'L-nope-1', quantity: 1 }], confirm: true }), 404, 'not_found');
    expectError(await t.post('/ucp/v1/depot/fill', { fills: [{ slot_id: slot.A, quantity: 1 }, { slot_id: slot.A, quantity: 1 }], confirm: true }), 400, 'invalid');
    expectError(await t.post('/ucp/v1/depot/fill', { fills: [], confirm: true }), 400, 'invalid');
    expect((await depot()).totals.units).toBe(14); // nothing moved by a refusal
    const args = { meta: { 'idempotency-key': `fill-${db}` }, fill: { fills: [{ slot_id: slot.A, quantity: a.from_depot }], confirm: true } };
    const filled = await callTool(mcp, 'fill_from_depot', args);
    expect(filled.status).toBe(200);
    expect(filled.body.filled).toEqual([{ slot_id: slot.A, item: { id: skuA }, quantity: a.from_depot, stock_before: 2, stock_after: 2 + a.from_depot }]);
    expect(filled.body.totals).toEqual({ goods: 14 - a.from_depot > 0 ? 1 : 0, units: 14 - a.from_depot });
    const replay = await callTool(mcp, 'fill_from_depot', args);
    expect(replay.replayed).toBe(true);
    expect(await stockOf(slot.A)).toBe(2 + a.from_depot);
    expect((await depot()).totals.units).toBe(14 - a.from_depot);
    expect(lineOf(await plan(), slot.A).from_depot).toBe(0);
    const events = (await t.get('/ucp/v1/events?kind=depot.stock').expect(200)).body.events as Json[];
    expect(events.map((e) => e.data.action)).toEqual(booked < 14 ? ['filled', 'counted'] : ['filled']);
  });

  it('a stock count replaces what the depot holds, with the reason and the differences in an event', async () => {
    const before = (await depot()).totals.units as number;
    expectError(await t.post('/ucp/v1/depot/counts', { counts: [{ item: { id: skuA }, quantity: 3 }], reason: 'x' }), 400, 'confirmation_required');
    expectError(await t.post('/ucp/v1/depot/counts', { counts: [{ item: { id: skuA }, quantity: 3 }], confirm: true }), 400, 'missing');
    expectError(await t.post('/ucp/v1/depot/counts', { counts: [{ item: { id: 'no-namespace' }, quantity: 3 }], reason: 'x', confirm: true }), 400, 'invalid');
    expectError(await t.post('/ucp/v1/depot/counts', { counts: [{ item: { id: skuA }, quantity: -1 }], reason: 'x', confirm: true }), 400, 'invalid');
    // Goods the service knows only (issue 37): FOUND is sold by a slot when counted.
    const found = await seedSlot(ds, LOC, 'FOUND', 0, 10);
    const counted = await t
      .post('/ucp/v1/depot/counts', { counts: [{ item: { id: skuA }, quantity: 3 }, { item: { id: 'sim-machine:FOUND' }, quantity: 2 }], reason: 'monthly count of the van', confirm: true })
      .set('Idempotency-Key', `count-${db}`)
      .expect(200);
    expect(counted.body.counted).toEqual([
      { item: { id: skuA }, before, after: 3, delta: 3 - before },
      { item: { id: 'sim-machine:FOUND' }, before: 0, after: 2, delta: 2 },
    ]);
    expect(counted.body.totals).toEqual({ goods: 2, units: 5 });
    // Its slot goes away: the depot still holds the good, with no title, and it can still be counted.
    await ds.query(`DELETE FROM slots WHERE id = $1`, [found]);
    const viaMcp = await callTool(mcp, 'get_depot', {});
    expect(viaMcp.body.stock).toEqual([
      expect.objectContaining({ item: { id: 'sim-machine:FOUND' }, title: null, quantity: 2 }),
      expect.objectContaining({ item: { id: skuA }, quantity: 3 }),
    ]);
    // Counted to 0: the good leaves the list.
    const zero = await callTool(mcp, 'count_depot_stock', { meta: { 'idempotency-key': `count0-${db}` }, count: { counts: [{ item: { id: 'sim-machine:FOUND' }, quantity: 0 }], reason: 'it was a mistake', confirm: true } });
    expect(zero.body.totals).toEqual({ goods: 1, units: 3 });
    const events = (await t.get('/ucp/v1/events?kind=depot.stock').expect(200)).body.events as Json[];
    const counts = events.filter((e) => e.data.action === 'counted' && e.data.reason !== 'the over-delivery is in the van');
    expect(counts.map((e) => e.data.reason).sort()).toEqual(['it was a mistake', 'monthly count of the van']);
    expect(counts.find((e) => e.data.reason === 'monthly count of the van')!.reasoning).toContain('monthly count of the van');
  });
});
