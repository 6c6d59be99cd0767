import { expectEnvelope, expectError } from '../support/envelope';
import { Fleet, startFleetWithApp } from '../support/fleet';
import { callTool, mcpClient } from '../support/mcp-client';
import { TestApp } from '../support/test-app';

/**
 * The route day over the fleet (two machines on an HTTP fake platform, no sales history: every slot sells the stated
 * 1 a day): which stops pay today for what a stop costs, goods in two steps (a run's lines arrive at the warehouse,
 * then a visit puts them into the slots), and the same over MCP.
 */
jest.setTimeout(120_000);

type Any = Record<string, any>;
const skipped = (body: Any, id: string): Any => body.skipped.find((m: Any) => m.location_id === id);
const stopOf = (body: Any, id: string): Any => body.route.find((s: Any) => s.machines.some((m: Any) => m.location_id === id));

describe.each(['postgres', 'embedded'] as const)('the route day (%s)', (db) => {
  let fleet: Fleet;
  let t: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => ({ fleet, t, close } = await startFleetWithApp({ SERVICE_ROUTE_STOP_COST_FEN: '5000' }, db)));
  afterAll(() => close());

  it('at ¥50.00 a stop no machine pays today: both are skipped, each with its reason and the day it becomes due', async () => {
    const res = await t.get('/ucp/v1/visits').expect(200);
    expectEnvelope(res.body, 'success');
    expect(res.body.day).toBe(res.body.computed_at.slice(0, 10));
    expect(res.body.settings).toEqual({ stops_per_day: 9, stop_cost_fen: 5000, horizon_days: 7, fill_policy: 'cover_until_next_visit', default_margin_share: 0.4 });
    expect(res.body.route).toEqual([]);
    expect(res.body.stops).toEqual({ planned: 0, capacity: 9 });
    expect(res.body.van).toEqual([]);
    // The plan's warnings reach the route: nobody sells the peanuts, so their margin is the stated share.
    expect(res.body.messages.map((m: Any) => [m.type, m.code])).toContainEqual(['warning', 'not_carried']);
    const gym = skipped(res.body, 'FLEET-2');
    expect(gym).toMatchObject({ name: 'Gym', decision: 'not_due', stop_cost_fen: 5000 });
    expect(gym.reason).toMatch(/^Waiting until \w{3} \d+ \w{3} loses about ¥\d+\.\d\d, less than the ¥[\d,]+\.\d\d the wait saves/);
    expect(gym.due_day === null || gym.due_day > res.body.day).toBe(true);
    // Peanuts (¥8.00, nobody prices them: 40% margin) with 1 left sell out sooner than the Lobby's goods.
    expect(gym.lost_if_skipped_fen).toBeGreaterThan(skipped(res.body, 'FLEET-1').lost_if_skipped_fen);
  });

  it('settings: a cheap stop makes the Gym pay today; machines of one site share a stop; a day off is said as such', async () => {
    expectError(await t.put('/ucp/v1/visits/settings/FLEET-2', { stop_cost_fen: -1 }), 400, 'invalid');
    expectError(await t.put('/ucp/v1/visits/settings/FLEET-2', { visit_days: ['someday'] }), 400, 'invalid');
    expectError(await t.put('/ucp/v1/visits/settings/NOPE-9', { stop_cost_fen: 1 }), 404, 'not_found');
    const put = await t.put('/ucp/v1/visits/settings/FLEET-2', { stop_cost_fen: 50 }).expect(200);
    expect(put.body.machine).toEqual({ location_id: 'FLEET-2', name: 'Gym', site: 'FLEET-2', stop_cost_fen: 50, visit_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], custom: true });
    // The warehouse is empty: a visit would pay, but could bring nothing; the driver is not sent.
    const empty = (await t.get('/ucp/v1/visits').expect(200)).body;
    expect(empty.route).toEqual([]);
    expect(skipped(empty, 'FLEET-2')).toMatchObject({ decision: 'nothing_to_bring', stop_cost_fen: 50 });
    expect(skipped(empty, 'FLEET-2').reason).toMatch(/^A visit would pay \(about ¥\d+\.\d\d lost by .*\), but the warehouse holds too little of its goods/);

    // Goods counted into the warehouse: the Gym's cheap stop pays today.
    await t.post('/ucp/v1/depot/counts', { counts: [{ item: { id: 'acme-machine:NUTS' }, quantity: 6 }], reason: 'found in the van', confirm: true }).expect(200);
    const res = (await t.get('/ucp/v1/visits').expect(200)).body;
    expect(res.route.map((s: Any) => s.machines.map((m: Any) => m.location_id))).toEqual([['FLEET-2']]);
    const stop = res.route[0];
    expect(stop).toMatchObject({ order: 1, site: 'FLEET-2', stop_cost_fen: 50 });
    expect(stop.value_fen).toBeGreaterThan(0);
    expect(stop.reason).toMatch(/^Skipping it until .* would lose about ¥\d+\.\d\d of margin, more than the ¥\d+\.\d\d the wait would save/);
    // Picks only from the warehouse: the peanuts it holds; the Cola it lacks is said as missing.
    expect(stop.machines[0].picks.map((p: Any) => [p.position, p.title])).toEqual([['NUTS', 'Salted peanuts 80g']]);
    expect(stop.machines[0].picks[0].units).toBeLessThanOrEqual(6);
    expect(res.warehouse_short.map((g: Any) => g.sku_id)).toContain('acme-machine:COLA');
    expect(stop.machines[0].slots.find((s: Any) => s.slot_id === 'FLEET-2-NUTS')).toMatchObject({ position: 'NUTS', title: 'Salted peanuts 80g', stock: 1, price_fen: 800, demand_measured: false });

    // One site: both machines in one stop (one stop cost: the higher of the two).
    await t.put('/ucp/v1/visits/settings/FLEET-1', { site: 'Tower A', stop_cost_fen: 40 }).expect(200);
    await t.put('/ucp/v1/visits/settings/FLEET-2', { site: 'Tower A' }).expect(200);
    const shared = (await t.get('/ucp/v1/visits').expect(200)).body;
    expect(shared.route).toHaveLength(1);
    expect(shared.route[0]).toMatchObject({ site: 'Tower A', stop_cost_fen: 50 });
    expect(shared.route[0].machines.map((m: Any) => m.name).sort()).toEqual(['Gym', 'Lobby']);
    expect(shared.stops.planned).toBe(1);

    // A machine that cannot be visited today.
    const today = new Date(`${shared.day}T00:00:00Z`).getUTCDay();
    const other = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][(today + 2) % 7];
    await t.put('/ucp/v1/visits/settings/FLEET-1', { site: null, visit_days: [other] }).expect(200);
    const off = (await t.get('/ucp/v1/visits').expect(200)).body;
    expect(skipped(off, 'FLEET-1')).toMatchObject({ decision: 'not_a_visit_day', next_possible_visit: expect.any(String) });
    expect(skipped(off, 'FLEET-1').reason).toMatch(/^Not a visit day for this machine; next possible \w{3} \d+ \w{3}\.$/);
    const listed = (await t.get('/ucp/v1/visits/settings').expect(200)).body;
    expect(listed.defaults).toEqual({ stop_cost_fen: 5000, stops_per_day: 9, horizon_days: 7 });
    expect(listed.machines.find((m: Any) => m.location_id === 'FLEET-1')).toMatchObject({ site: 'FLEET-1', stop_cost_fen: 40, visit_days: [other], custom: true });
    await t.put('/ucp/v1/visits/settings/FLEET-1', { visit_days: null, stop_cost_fen: null }).expect(200);
  });

  it('goods in two steps: a run arrives at the warehouse line by line, then a visit puts the picks into the slots', async () => {
    const run = (await t.post('/ucp/v1/replenishment/runs').expect(201)).body;
    await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).expect(200);
    const cola = run.lines.find((l: Any) => l.slot_id === 'FLEET-2-COLA');
    expect(cola).toBeDefined();
    // Arrival: validation, then the Gym's Cola line into the depot (the slot does not move).
    const arrive = (body: unknown, key?: string) => {
      const r = t.post(`/ucp/v1/replenishment/runs/${run.id}/arrivals`, body);
      return key ? r.set('Idempotency-Key', key) : r;
    };
    expectError(await arrive({ arrived: [] }), 400, 'invalid');
    expectError(await arrive({ arrived: [{ slot_id: 'FLEET-2-COLA', quantity: cola.ordered_each + 1 }] }), 400, 'invalid');
    const got = await arrive({ arrived: [{ slot_id: 'FLEET-2-COLA', quantity: cola.ordered_each }] }, `arr-${db}`).expect(200);
    expect(got.body.status).toBe(run.lines.length === 1 ? 'delivered' : 'placed');
    expect(got.body.delivered).toEqual([expect.objectContaining({ slot_id: 'FLEET-2-COLA', quantity: cola.ordered_each, arrived: true, to_depot: cola.ordered_each, shortfall: 0, stock_before: null })]);
    const replay = await arrive({ arrived: [{ slot_id: 'FLEET-2-COLA', quantity: cola.ordered_each }] }, `arr-${db}`).expect(200);
    expect(replay.body).toEqual(got.body);
    expectError(await arrive({ arrived: [{ slot_id: 'FLEET-2-COLA', quantity: 1 }] }), 409, 'already_delivered');
    const depot = (await t.get('/ucp/v1/depot').expect(200)).body;
    expect(depot.stock.find((s: Any) => s.item.id === 'acme-machine:COLA').quantity).toBe(cola.ordered_each);
    // The lead time is measured at the arrival, before the run is delivered.
    const plan = (await t.get('/ucp/v1/replenishment/plan').expect(200)).body;
    expect(plan.lead_times[0]).toMatchObject({ source: 'measured', samples: 1 });

    // The route picks the Cola from the warehouse for the Gym (its stop is cheap).
    const route = (await t.get('/ucp/v1/visits').expect(200)).body;
    const gym = stopOf(route, 'FLEET-2').machines.find((m: Any) => m.location_id === 'FLEET-2');
    const pick = gym.picks.find((p: Any) => p.slot_id === 'FLEET-2-COLA');
    expect(pick).toMatchObject({ position: 'COLA', title: 'Cola 330ml', stock: 4 });
    // Filled to last until the next planned visit; what the warehouse lacks is said, never picked.
    expect(pick.units).toBe(Math.min(cola.ordered_each, pick.fill_to - 4));
    expect(pick.short).toBe(pick.fill_to - 4 - pick.units);
    // The van: today's route only, per good (the peanuts counted in earlier go too).
    expect(route.van.find((g: Any) => g.sku_id === 'acme-machine:COLA')).toEqual({ sku_id: 'acme-machine:COLA', title: 'Cola 330ml', units: pick.units, slots: 1 });
    const routeUnits = route.route.flatMap((s: Any) => s.machines.flatMap((m: Any) => m.picks)).reduce((t: number, p: Any) => t + p.units, 0);
    expect(route.van.reduce((t: number, g: Any) => t + g.units, 0)).toBe(routeUnits);

    // The visit: confirm, key, validation, then stock up and depot down; a retry answers the first outcome.
    const visit = (body: Any, key?: string) => {
      const r = t.post('/ucp/v1/visits', body);
      return key ? r.set('Idempotency-Key', key) : r;
    };
    const body = { location_id: 'FLEET-2', slots: [{ slot_id: 'FLEET-2-COLA', loaded: pick.units, returned: 1 }], confirm: true };
    expectError(await visit({ ...body, confirm: undefined }), 400, 'confirmation_required');
    expectError(await visit({ ...body, slots: [{ slot_id: 'FLEET-1-TEA', loaded: 1 }] }), 400, 'invalid');
    expectError(await visit({ ...body, location_id: 'NOPE-1' }), 404, 'not_found');
    expectError(await visit({ ...body, slots: [{ slot_id: 'FLEET-2-COLA', loaded: cola.ordered_each + 1 }] }), 409, 'depot_insufficient');
    expectError(await visit({ ...body, slots: [{ slot_id: 'FLEET-2-COLA', loaded: 1 }, { slot_id: 'FLEET-2-COLA', loaded: 1 }] }), 400, 'invalid');
    const done = await visit(body, `visit-${db}`).expect(200);
    expect(done.body.visit).toMatchObject({
      location_id: 'FLEET-2',
      name: 'Gym',
      units_loaded: pick.units,
      units_returned: 1,
      recorded_at: expect.stringMatching(/\+08:00$/),
      slots: [{ slot_id: 'FLEET-2-COLA', position: 'COLA', title: 'Cola 330ml', loaded: pick.units, returned: 1, stock_before: 4, stock_after: 4 + pick.units }],
    });
    const again = await visit(body, `visit-${db}`).expect(200);
    expect(again.body).toEqual(done.body);
    const after = (await t.get('/ucp/v1/depot').expect(200)).body;
    expect(after.stock.find((s: Any) => s.item.id === 'acme-machine:COLA')?.quantity ?? 0).toBe(cola.ordered_each - pick.units);
    // The synced copy holds the new stock (the platform reports it at its next sync).
    const next = (await t.get('/ucp/v1/visits').expect(200)).body;
    const gymSlots = [...next.route.flatMap((s: Any) => s.machines), ...[]].find((m: Any) => m.location_id === 'FLEET-2')?.slots;
    const colaNow = gymSlots ? gymSlots.find((s: Any) => s.slot_id === 'FLEET-2-COLA').stock : (await t.get('/ucp/v1/replenishment/plan?location=FLEET-2').expect(200)).body.slots.find((s: Any) => s.slot_id === 'FLEET-2-COLA').stock;
    expect(colaNow).toBe(4 + pick.units);
    // Plan again: the arrived line is off order, the slot's new stock and the depot's rest are its position, so the
    // units that arrived are not bought a second time.
    const replanned = (await t.get('/ucp/v1/replenishment/plan?location=FLEET-2').expect(200)).body;
    const colaLine = replanned.slots.find((l: Any) => l.slot_id === 'FLEET-2-COLA');
    expect(colaLine).toMatchObject({ stock: 4 + pick.units, on_order: 0 });
    const depotLeft = cola.ordered_each - pick.units;
    expect(colaLine.from_depot + colaLine.depot_held).toBe(Math.min(depotLeft, Math.max(0, colaLine.target - colaLine.stock)));
    expect(colaLine.quantity_each).toBe(Math.max(0, colaLine.target - colaLine.stock - depotLeft));
    const events = (await t.get('/ucp/v1/events?kind=visit.recorded').expect(200)).body.events as Any[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ location: 'FLEET-2', data: { visit_id: done.body.visit.id, units_loaded: pick.units, units_returned: 1 } });
  });

  it('over MCP: plan_route answers the route; record_visit needs confirm and records once under its key', async () => {
    const client = await mcpClient(t);
    try {
      const a = await callTool(client, 'plan_route');
      expect(a.status).toBe(200);
      const rest = (await t.get('/ucp/v1/visits').expect(200)).body;
      expect((a.body.route as Any[]).map((s) => s.site)).toEqual(rest.route.map((s: Any) => s.site));
      expect((a.body.skipped as Any[]).map((s) => [s.location_id, s.reason])).toEqual(rest.skipped.map((s: Any) => [s.location_id, s.reason]));
      const noConfirm = await callTool(client, 'record_visit', { meta: { 'idempotency-key': `mcp-nc-${db}` }, visit: { location_id: 'FLEET-1', slots: [{ slot_id: 'FLEET-1-TEA', loaded: 0, returned: 2 }] } });
      expect(noConfirm.status).toBe(400);
      const args = { meta: { 'idempotency-key': `mcp-v-${db}` }, visit: { location_id: 'FLEET-1', slots: [{ slot_id: 'FLEET-1-TEA', loaded: 0, returned: 2 }], confirm: true } };
      const first = await callTool(client, 'record_visit', args);
      expect(first.status).toBe(200);
      expect((first.body.visit as Any).units_returned).toBe(2);
      const second = await callTool(client, 'record_visit', args);
      expect(second.body).toEqual(first.body);
      const events = (await t.get('/ucp/v1/events?kind=visit.recorded').expect(200)).body.events as Any[];
      expect(events.filter((e) => e.location === 'FLEET-1')).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
