import { DataSource } from 'typeorm';
import { PartnerError, SupplyProduct } from '../../src/partners/adapter.types';
import { PartnerRegistry } from '../../src/partners/registry/partner-registry';
import { expectEnvelope, expectError } from '../support/envelope';
import { closePlacedRuns, DemandCases, lineOf, LOC, seedDemandCases, setGuards } from '../support/replenishment-demand';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Replenishment runs over HTTP on a real database, on the demand cases of test/support/replenishment-demand.ts: create,
 * list, place (once, under the kill switch, the budget approval and an Idempotency-Key), partner failures, and
 * receive capped at capacity feeding the measured lead time.
 */
jest.setTimeout(60_000);

describe('replenishment runs (PostgreSQL)', () => {
  let t: TestApp;
  let ds: DataSource;
  let products: SupplyProduct[];
  let slot: DemandCases['slot'];
  let sku: DemandCases['sku'];

  beforeAll(async () => {
    t = await startTestApp({ env: { SERVICE_GUARDS: undefined } });
    ds = t.app.get(DataSource);
    await setGuards(t, 10_000_000);
    ({ products, slot, sku } = await seedDemandCases(t));
  });
  afterAll(() => t.close());
  // Each test builds its run from the same demand: runs a previous test left on order are closed first.
  beforeEach(() => closePlacedRuns(t));

  it('creates, lists, places (once) and receives a run; delivery is capped at capacity and feeds the lead time', async () => {
    const sim = t.app.get(PartnerRegistry).simulatedSupplier;
    const created = await t.post('/ucp/v1/replenishment/runs').expect(201);
    expectEnvelope(created.body, 'success');
    const run = created.body;
    expect(run).toMatchObject({ status: 'ready', cost_is_estimated: true, fulfiller: { kind: 'simulated_supplier', namespace: 'sim-supply' } });
    expect(run.lines.map((l: { slot_id: string }) => l.slot_id).sort()).toEqual([slot.A, slot.B, slot.C, slot.D].sort());
    const total = run.lines.reduce((s: number, l: { cost_estimate: { amount: number } }) => s + l.cost_estimate.amount, 0);
    expect(run.total_cost_estimate).toEqual({ amount: total, currency: 'CNY' });

    expect((await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body.id).toBe(run.id);
    expectError(await t.get('/ucp/v1/replenishment/runs/run-nope'), 404, 'not_found');
    const listed = await t.get('/ucp/v1/replenishment/runs?status=ready').expect(200);
    expect(listed.body.runs.map((r: { id: string }) => r.id)).toContain(run.id);
    const summary = listed.body.runs.find((r: { id: string }) => r.id === run.id);
    expect(summary).toMatchObject({ status: 'ready', line_count: 4, cost_is_estimated: true, total_cost_estimate: run.total_cost_estimate });
    expect(summary.lines).toBeUndefined();
    expect((await t.get('/ucp/v1/replenishment/runs?status=placed').expect(200)).body.runs).toEqual([]);
    expectError(await t.get('/ucp/v1/replenishment/runs?status=shipped'), 400, 'invalid');

    expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/receive`, { delivered: [{ slot_id: slot.A, quantity: 1 }] }), 409, 'invalid_state');

    const before = sim.orderCalls.length;
    const placed = await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).expect(200);
    expect(placed.body).toMatchObject({ id: run.id, status: 'placed' });
    expect(placed.body.placed_at).toMatch(/\+08:00$/);
    expect(sim.orderCalls.length).toBe(before + 1);
    const order = sim.orderCalls[sim.orderCalls.length - 1];
    expect(order.ref).toBe(run.id);
    const lineA = order.lines.find((l) => l.vendorSku === sku.A)!;
    expect(lineA).toEqual({ vendorSku: sku.A, quantity: Math.ceil(14 / products[0].packSize), unit: 'pack' });
    expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`), 409, 'already_placed');
    expect(sim.orderCalls.length).toBe(before + 1);

    // Receive: validation first.
    const rcv = (body: unknown) => t.post(`/ucp/v1/replenishment/runs/${run.id}/receive`, body);
    expectError(await rcv({ delivered: [] }), 400, 'invalid');
    expectError(await rcv({}), 400, 'missing');
    expectError(await rcv({ delivered: [{ slot_id: slot.A, quantity: -1 }] }), 400, 'invalid');
    expectError(await rcv({ delivered: [{ slot_id: slot.A, quantity: 1.5 }] }), 400, 'invalid');
    expectError(await rcv({ delivered: [{ slot_id: 'L-repl-1-unknown', quantity: 1 }] }), 400, 'invalid');
    const bad = await rcv({ delivered: [{ slot_id: slot.A, quantity: 1 }, { slot_id: slot.A, quantity: 1 }] });
    expectError(bad, 400, 'invalid');

    // Lead time: the run was placed 3 days ago (measured placed → delivered).
    await ds.query(`UPDATE replenishment_runs SET placed_at = now() - interval '3 days' WHERE id = $1`, [run.id]);
    // One receive delivers the run (the spec's state table): the listed lines close with what arrived; B, not
    // listed, is closed with its whole quantity as shortfall, so it leaves on-order.
    const got = await rcv({ delivered: [{ slot_id: slot.A, quantity: 24 }, { slot_id: slot.C, quantity: 3 }, { slot_id: slot.D, quantity: 0 }], note: 'van 2' }).expect(200);
    expect(got.body).toMatchObject({ status: 'delivered', note: 'van 2' });
    const ordered = (s: string) => run.lines.find((l: { slot_id: string }) => l.slot_id === s).ordered_each as number;
    expect(got.body.delivered).toEqual([
      // 16 fit under the capacity of 20; the other 8 are kept in the depot (issue 25).
      { slot_id: slot.A, quantity: 24, stock_before: 4, stock_after: 20, ordered_each: ordered(slot.A), shortfall: Math.max(0, ordered(slot.A) - 24), to_depot: 8, received_at: expect.stringMatching(/\+08:00$/) },
      { slot_id: slot.C, quantity: 3, stock_before: 3, stock_after: 6, ordered_each: ordered(slot.C), shortfall: ordered(slot.C) - 3, received_at: expect.stringMatching(/\+08:00$/) },
      { slot_id: slot.D, quantity: 0, stock_before: 5, stock_after: 5, ordered_each: ordered(slot.D), shortfall: ordered(slot.D), received_at: expect.stringMatching(/\+08:00$/) },
      { slot_id: slot.B, quantity: 0, stock_before: null, stock_after: null, ordered_each: ordered(slot.B), shortfall: ordered(slot.B), closed: true },
    ]);
    expectError(await rcv({ delivered: [{ slot_id: slot.B, quantity: 0 }] }), 409, 'already_delivered');
    const stocks = (await ds.query(`SELECT id, stock FROM slots WHERE location_id = $1 ORDER BY id`, [LOC])) as { id: string; stock: number }[];
    expect(Object.fromEntries(stocks.map((s) => [s.id, s.stock]))).toMatchObject({ [slot.A]: 20, [slot.B]: 0, [slot.C]: 6, [slot.D]: 5 });
    expectError(await rcv({ delivered: [{ slot_id: slot.A, quantity: 1 }] }), 409, 'already_delivered');
    expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`), 409, 'already_placed');

    const plan = await t.get('/ucp/v1/replenishment/plan').expect(200);
    // One sample per received line (lead time per line), the three received 3 days after placing; B, closed
    // without a delivery, is no sample.
    expect(lineOf(plan.body, slot.A).lead_time).toEqual({ days: 3, sigma_days: 0, source: 'measured', samples: 3, fulfiller: 'sim-supply' });
    expect(plan.body.lead_times).toEqual([{ fulfiller: 'sim-supply', kind: 'simulated_supplier', days: 3, sigma_days: 0, source: 'measured', samples: 3 }]);
    // Longer lead time, higher target for the uncapped slot D: S = ceil(1 × (7 + 3)) = 10.
    expect(lineOf(plan.body, slot.D).target).toBe(10);
    const events = await t.get('/ucp/v1/events?kind=replenishment.run').expect(200);
    expect(events.body.events.map((e: { data?: { action: string } }) => e.data?.action)).toEqual(expect.arrayContaining(['created', 'placed', 'delivered']));
  });

  it('places once under an Idempotency-Key: a replay answers the same and calls nobody', async () => {
    const sim = t.app.get(PartnerRegistry).simulatedSupplier;
    const run = (await t.post('/ucp/v1/replenishment/runs').expect(201)).body;
    const before = sim.orderCalls.length;
    const first = await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).set('Idempotency-Key', `k-${run.id}`).expect(200);
    const again = await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).set('Idempotency-Key', `k-${run.id}`).expect(200);
    expect(again.body).toEqual(first.body);
    expect(sim.orderCalls.length).toBe(before + 1);
    expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).set('Idempotency-Key', 'another-key'), 409, 'already_placed');
  });

  it('kill switch: place is refused with kill_switch_engaged and no supplier is called; the run stays ready', async () => {
    const sim = t.app.get(PartnerRegistry).simulatedSupplier;
    const run = (await t.post('/ucp/v1/replenishment/runs').expect(201)).body;
    await t.put('/ucp/v1/admin/kill-switch', { engaged: true, reason: 'test freeze' }).expect(200);
    const before = sim.calls.length;
    try {
      expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`), 409, 'kill_switch_engaged');
      expect(sim.calls.length).toBe(before);
      expect((await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body.status).toBe('ready');
      // Reads are never blocked.
      await t.get('/ucp/v1/replenishment/plan').expect(200);
    } finally {
      await t.put('/ucp/v1/admin/kill-switch', { engaged: false, reason: 'test over' }).expect(200);
    }
    await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).expect(200);
  });

  it('over budget: the run waits for a replenishment_run approval; approved it can be placed, rejected it cannot', async () => {
    await setGuards(t, 100);
    try {
      const res = await t.post('/ucp/v1/replenishment/runs').expect(201);
      const run = res.body;
      expect(run.status).toBe('awaiting_approval');
      expect(run.approval_id).toEqual(expect.any(String));
      const msg = res.body.messages.find((m: { code: string }) => m.code === 'approval_required');
      expect(msg.severity).toBe('requires_buyer_review');
      const approval = (await t.get(`/ucp/v1/approvals/${run.approval_id}`).expect(200)).body.approval;
      expect(approval).toMatchObject({ kind: 'replenishment_run', status: 'pending', subject: { run_id: run.id } });
      expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`), 409, 'approval_required');
      expect((await t.get('/ucp/v1/replenishment/runs?status=awaiting_approval').expect(200)).body.runs.map((r: { id: string }) => r.id)).toContain(run.id);

      await t.post(`/ucp/v1/approvals/${run.approval_id}`, { approved: true, resolver: { channel: 'dashboard' } }).expect(200);
      expect((await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body.status).toBe('ready');
      const placed = await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`);
      expect(placed.body.messages).toEqual([]);
      expect(placed.body.status).toBe('placed');

      await closePlacedRuns(t);
      const second = (await t.post('/ucp/v1/replenishment/runs').expect(201)).body;
      await t.post(`/ucp/v1/approvals/${second.approval_id}`, { approved: false, resolver: { channel: 'dashboard' } }).expect(200);
      expect((await t.get(`/ucp/v1/replenishment/runs/${second.id}`).expect(200)).body.status).toBe('rejected');
      expectError(await t.post(`/ucp/v1/replenishment/runs/${second.id}/place`), 409, 'invalid_state');
    } finally {
      await setGuards(t, 10_000_000);
    }
  });
  it('a ready run that now passes the budget is parked for approval at place, and the supplier is not called', async () => {
    const sim = t.app.get(PartnerRegistry).simulatedSupplier;
    const run = (await t.post('/ucp/v1/replenishment/runs').expect(201)).body;
    expect(run.status).toBe('ready');
    await setGuards(t, 100);
    const before = sim.orderCalls.length;
    try {
      expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`), 409, 'approval_required');
      expect(sim.orderCalls.length).toBe(before);
      const parked = (await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body;
      expect(parked.status).toBe('awaiting_approval');
      await t.post(`/ucp/v1/approvals/${parked.approval_id}`, { approved: true, resolver: { channel: 'dashboard' } }).expect(200);
      expect((await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).expect(200)).body.status).toBe('placed');
      expect(sim.orderCalls.length).toBe(before + 1);
    } finally {
      await setGuards(t, 10_000_000);
    }
  });

  it('a supplier refusal (502 supplier_rejected) or outage (502 upstream_unreachable) leaves the run ready; nothing retries', async () => {
    const sim = t.app.get(PartnerRegistry).simulatedSupplier;
    const run = (await t.post('/ucp/v1/replenishment/runs').expect(201)).body;
    const original = sim.createOrder.bind(sim);
    let calls = 0;
    try {
      sim.createOrder = () => {
        calls++;
        return Promise.reject(new PartnerError('rejected', 'sim-supply', 'warehouse closed'));
      };
      expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`), 502, 'supplier_rejected');
      expect(calls).toBe(1);
      expect((await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body.status).toBe('ready');
      sim.createOrder = () => {
        calls++;
        return Promise.reject(new PartnerError('unreachable', 'sim-supply', 'timeout'));
      };
      expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`), 502, 'upstream_unreachable');
      expect(calls).toBe(2);
      expect((await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body.status).toBe('ready');
    } finally {
      sim.createOrder = original;
    }
    expect((await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).expect(200)).body.status).toBe('placed');
  });
});
