import { expectEnvelope } from '../support/envelope';
import { Fleet, startFleetWithApp } from '../support/fleet';
import { callTool, mcpClient } from '../support/mcp-client';
import { TestApp } from '../support/test-app';

/**
 * Issue 30: `GET /visits` and the `get_visits` tool over the fleet (two machines on an HTTP fake platform). No sales
 * history, so every slot sells the stated fallback of 1 a day: cover = stock. The picks follow the open run and
 * leave it once it is delivered; the delivery is the machine's last delivery.
 */
jest.setTimeout(90_000);

type Any = Record<string, any>;
const machine = (body: Any, id: string): Any => body.machines.find((m: Any) => m.id === id);

describe.each(['postgres', 'embedded'] as const)('visits (%s)', (db) => {
  let fleet: Fleet;
  let t: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => ({ fleet, t, close } = await startFleetWithApp({}, db)));
  afterAll(() => close());

  it('ranks the machines by the rule, with its inputs, and a machine that needs nothing last', async () => {
    const res = await t.get('/ucp/v1/visits').expect(200);
    expectEnvelope(res.body, 'success');
    expect(res.body.rules).toMatchObject({ low_cover_days: 2, low_fill_percent: 50, delivery_due_days: 7, stale_hours: 8, sales_window_days: 30 });
    expect(res.body.machines.map((m: Any) => [m.id, m.needs_visit])).toEqual([
      ['FLEET-2', true], // peanuts: 1 left at 1 a day
      ['FLEET-1', false],
    ]);
    const gym = machine(res.body, 'FLEET-2');
    expect(gym.reasons).toEqual([{ code: 'low_cover', text: '1 slot runs out within 2 days' }]);
    expect(gym.inputs).toEqual({ slots: 2, sold_out_slots: 0, low_cover_slots: 1, min_cover_days: 1, fill_percent: null, days_since_delivery: null, data_age_hours: 0 });
    expect(gym.slots.find((s: Any) => s.slot_id === 'FLEET-2-NUTS')).toMatchObject({ title: 'Salted peanuts 80g', sku_id: 'acme-machine:NUTS', stock: 1, rate_per_day: 1, demand_measured: false, cover_days: 1 });
    // Nothing is ordered yet: every pick is the plan's need, from nowhere.
    expect(gym.picks.every((p: Any) => p.from === null && p.units === p.planned_units)).toBe(true);
    expect(res.body.van).toEqual(gym.pre_kit.map((k: Any) => k)); // only the machine to visit goes in the van
  });

  it('a sold-out slot puts its machine first; an open run is where its units come from, until it is delivered', async () => {
    (fleet.acme.state.inventory['FLEET-1'] as Any[]).find((s) => s.vendorSku === 'TEA')!.stock = 0;
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
    const run = (await t.post('/ucp/v1/replenishment/runs').expect(201)).body;
    expect(run.status).toBe('ready');
    const res = (await t.get('/ucp/v1/visits').expect(200)).body;
    expect(res.machines.map((m: Any) => m.id)).toEqual(['FLEET-1', 'FLEET-2']);
    const lobby = machine(res, 'FLEET-1');
    expect(lobby.reasons.map((r: Any) => r.code)).toEqual(['sold_out']);
    expect(lobby.score).toBeGreaterThan(machine(res, 'FLEET-2').score);
    const tea = lobby.picks.find((p: Any) => p.slot_id === 'FLEET-1-TEA');
    const runTea = run.lines.find((l: Any) => l.slot_id === 'FLEET-1-TEA');
    expect(tea).toEqual({ slot_id: 'FLEET-1-TEA', sku_id: 'acme-machine:TEA', title: 'Green tea 500ml', units: runTea.quantity_each, planned_units: expect.any(Number), from: { kind: 'open_run', run_id: run.id, run_status: 'ready' } });
    // The peanuts are sold by nobody: not in the run, still needed.
    expect(machine(res, 'FLEET-2').picks.find((p: Any) => p.slot_id === 'FLEET-2-NUTS')).toMatchObject({ from: null });
    const vanUnits = res.van.reduce((u: number, k: Any) => u + k.units, 0);
    const pickUnits = res.machines.filter((m: Any) => m.needs_visit).flatMap((m: Any) => m.picks).reduce((u: number, p: Any) => u + p.units, 0);
    expect(vanUnits).toBe(pickUnits);

    await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).expect(200);
    const placed = (await t.get('/ucp/v1/visits').expect(200)).body;
    expect(machine(placed, 'FLEET-1').picks.find((p: Any) => p.slot_id === 'FLEET-1-TEA').from).toEqual({ kind: 'open_run', run_id: run.id, run_status: 'placed' });
    const delivered = run.lines.map((l: Any) => ({ slot_id: l.slot_id, quantity: l.quantity_each }));
    await t.post(`/ucp/v1/replenishment/runs/${run.id}/receive`, { delivered }).expect(200);
    const after = (await t.get('/ucp/v1/visits').expect(200)).body;
    const lobbyAfter = machine(after, 'FLEET-1');
    expect(lobbyAfter.inputs).toMatchObject({ sold_out_slots: 0, days_since_delivery: 0 });
    expect(lobbyAfter.picks.every((p: Any) => p.from === null)).toBe(true);
  });

  it('the MCP tool get_visits answers the same operation', async () => {
    const client = await mcpClient(t);
    try {
      const a = await callTool(client, 'get_visits');
      expect(a.isError).toBe(false);
      expect(a.status).toBe(200);
      const rest = (await t.get('/ucp/v1/visits').expect(200)).body;
      expect((a.body.machines as Any[]).map((m) => [m.id, m.rank, m.reasons])).toEqual(rest.machines.map((m: Any) => [m.id, m.rank, m.reasons]));
    } finally {
      await client.close();
    }
  });
});
