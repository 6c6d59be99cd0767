import { expectEnvelope, expectError } from '../support/envelope';
import { Fleet, FLEET_RUN_DELIVERED, startFleetWithApp } from '../support/fleet';
import { TestApp } from '../support/test-app';
import { GUARDS, ordersPosted } from '../support/money-fixtures';
import { sql } from '../support/sql';
import { ACME, BETA, describeSupplyCheckout, Json } from './replenishment-supply-checkout.suite';

/**
 * Replenishment runs placed by supply checkout (replenishment-supply-checkout.suite.ts): the whole path from plan to
 * receive, confirm, the kill switch, a budget approval naming the run, a hard no-go on one supplier, and the path on
 * the embedded database; one order per purchase order through timeouts and concurrent places is
 * replenishment-supply-checkout-once.e2e-spec.ts.
 */
describeSupplyCheckout('replenishment runs placed by supply checkout (production): the place and its guards', (c) => {
  it('plan → run → place → receive: one purchase order per supplier, listed as purchases, lead time measured', async () => {
    const { t, fleet, create, place, posts } = c;
    const run = await create();
    expectEnvelope(run, 'success');
    expect(run).toMatchObject({ status: 'ready', cost_is_estimated: true, fulfiller: { kind: 'supply_checkout', namespace: null, namespaces: ['acme-supply', 'beta-supply'] } });
    expect(run.total_cost_estimate).toEqual({ amount: 8400, currency: 'CNY' });
    expect(run.purchase_orders).toEqual([
      { checkout_id: ACME(run.id), supplier: 'acme-supply', status: 'not_opened', total: { amount: 4800, currency: 'CNY' }, order_id: null },
      { checkout_id: BETA(run.id), supplier: 'beta-supply', status: 'not_opened', total: { amount: 3600, currency: 'CNY' }, order_id: null },
    ]);
    expect(run.messages.map((m: Json) => m.code)).toContain('not_carried');

    const placed = await place(run.id).expect(200);
    expect(placed.body.status).toBe('placed');
    expect(placed.body.purchase_orders.map((p: Json) => [p.checkout_id, p.status])).toEqual([
      [ACME(run.id), 'completed'],
      [BETA(run.id), 'completed'],
    ]);
    // Exactly one POST /orders per supplier, with ref = session id, the goods summed and rounded up to the box once.
    expect(ordersPosted(fleet.acme, ACME(run.id))).toBe(1);
    expect(ordersPosted(fleet.beta, BETA(run.id))).toBe(1);
    expect(fleet.acme.state.orders[ACME(run.id)].request).toMatchObject({ lines: [{ vendorSku: 'COLA', quantity: 1, unit: 'pack' }], fulfillment: { method: 'restock' } });
    expect(fleet.beta.state.orders[BETA(run.id)].request).toMatchObject({ lines: [{ vendorSku: 'BT-9', quantity: 2, unit: 'pack' }] });

    const session = (await t.get(`/ucp/v1/checkout-sessions/${ACME(run.id)}`).expect(200)).body;
    expect(session).toMatchObject({ status: 'completed', order: { id: ACME(run.id) } });
    const purchases = (await t.get('/ucp/v1/orders?kind=purchase').expect(200)).body.orders as Json[];
    expect(purchases.filter((o) => o.checkout_id.startsWith(run.id)).map((o) => o.checkout_id).sort()).toEqual([ACME(run.id), BETA(run.id)]);
    expectError(await place(run.id), 409, 'already_placed');
    expect(posts(run.id)).toBe(2);

    await sql(t, `UPDATE replenishment_runs SET placed_at = now() - interval '4 days' WHERE id = $1`, [run.id]);
    const got = await t
      .post(`/ucp/v1/replenishment/runs/${run.id}/receive`, { delivered: FLEET_RUN_DELIVERED })
      .expect(200);
    expect(got.body.status).toBe('delivered');
    const plan = (await t.get('/ucp/v1/replenishment/plan?fulfiller=supply_checkout').expect(200)).body;
    expect(plan.lead_times).toEqual(
      expect.arrayContaining([
        // One sample per received line, for the supplier the line was ordered from (its `supply.ordered_from`): two of
        // the run's three lines went to acme, one to beta.
        { fulfiller: 'acme-supply', kind: 'supply_checkout', days: 4, sigma_days: 0, source: 'measured', samples: 2 },
        { fulfiller: 'beta-supply', kind: 'supply_checkout', days: 4, sigma_days: 0, source: 'measured', samples: 1 },
      ]),
    );
    // Stock rose from 4 to 14; the measured 4 days raise the target: ceil(1 × (7 + 4) + 1.65 × √11) = 17.
    expect(plan.slots.find((s: Json) => s.slot_id === 'FLEET-1-COLA')).toMatchObject({ stock: 14, target: 17, quantity_each: 3 });
  });

  it('place needs the JSON boolean confirm: true; anything else is 400 confirmation_required and nothing is sent', async () => {
    const { t, create, place, posts } = c;
    const run = await create();
    for (const body of [{}, { confirm: 'true' }, { confirm: 1 }, { confirm: false }]) expectError(await place(run.id, body), 400, 'confirmation_required');
    expect((await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body.status).toBe('ready');
    expect(posts(run.id)).toBe(0);
    expect((await sql(t, `SELECT id FROM checkout_sessions WHERE run_id = $1`, [run.id])).length).toBe(0);
    await place(run.id).expect(200);
  });

  it('kill switch: 409 kill_switch_engaged, no session opened and nothing sent; the run stays ready', async () => {
    const { t, create, place, posts } = c;
    const run = await create();
    await t.put('/ucp/v1/admin/kill-switch', { engaged: true, reason: 'freeze' }).expect(200);
    try {
      expectError(await place(run.id), 409, 'kill_switch_engaged');
      expect(posts(run.id)).toBe(0);
      expect(await sql(t, `SELECT id FROM checkout_sessions WHERE run_id = $1`, [run.id])).toEqual([]);
      expect((await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body.status).toBe('ready');
    } finally {
      await t.put('/ucp/v1/admin/kill-switch', { engaged: false, reason: 'over' }).expect(200);
    }
    await place(run.id).expect(200);
    expect(posts(run.id)).toBe(2);
  });

  it('over budget at place: 409 approval_required with ONE pending approval naming the run; approved, the place goes through', async () => {
    const { t, create, place, setBudget, posts } = c;
    const run = await create();
    await setBudget(1000);
    try {
      const refused = await place(run.id);
      expectError(refused, 409, 'approval_required');
      expect(posts(run.id)).toBe(0);
      const pending = (await t.get('/ucp/v1/approvals?status=pending').expect(200)).body.approvals as Json[];
      const mine = pending.filter((a) => JSON.stringify(a.subject).includes(run.id));
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ kind: 'replenishment_run', subject: { run_id: run.id } });
      expectError(await place(run.id), 409, 'approval_required');
      await t.post(`/ucp/v1/approvals/${mine[0].id}`, { approved: true, resolver: { channel: 'dashboard' } }).expect(200);
      const placed = await place(run.id).expect(200);
      expect(placed.body.status).toBe('placed');
      expect(posts(run.id)).toBe(2);
      // Still one approval for the run: the sessions were covered by it, none of them asked again.
      const all = (await t.get('/ucp/v1/approvals?status=all').expect(200)).body.approvals as Json[];
      expect(all.filter((a) => JSON.stringify(a.subject).includes(run.id))).toHaveLength(1);
    } finally {
      await setBudget(GUARDS.budget.perOrderFen);
    }
  });

  it('hard no-go on one supplier: the other purchase order is placed, the run is ready again; lifted, the retry sends only the missing one', async () => {
    const { t, fleet, create, place } = c;
    const run = await create();
    await t.put('/ucp/v1/admin/guards', { ...GUARDS, hardNoGo: { vendors: ['beta'], skus: [] } }).expect(200);
    try {
      expectError(await place(run.id), 409, 'invalid_state');
      expect(ordersPosted(fleet.acme, ACME(run.id))).toBe(1);
      expect(ordersPosted(fleet.beta, BETA(run.id))).toBe(0);
      const parked = (await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body;
      expect(parked.status).toBe('ready');
      expect(parked.purchase_orders.map((p: Json) => p.status)).toEqual(['completed', 'incomplete']);
      const session = (await t.get(`/ucp/v1/checkout-sessions/${BETA(run.id)}`).expect(200)).body;
      expect(session.messages).toContainEqual(expect.objectContaining({ code: 'hard_no_go', severity: 'unrecoverable' }));
    } finally {
      await t.put('/ucp/v1/admin/guards', GUARDS).expect(200);
    }
    expect((await place(run.id).expect(200)).body.status).toBe('placed');
    expect(ordersPosted(fleet.acme, ACME(run.id))).toBe(1);
    expect(ordersPosted(fleet.beta, BETA(run.id))).toBe(1);
  });
});

describe('supply checkout on the embedded database (production)', () => {
  let fleet: Fleet;
  let t: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => ({ fleet, t, close } = await startFleetWithApp({}, 'embedded')));
  afterAll(() => close());

  it('plan → run → place → receive', async () => {
    const run = (await t.post('/ucp/v1/replenishment/runs?fulfiller=supply_checkout').expect(201)).body;
    const placed = await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`, { confirm: true }).expect(200);
    expect(placed.body.purchase_orders.map((p: Json) => p.status)).toEqual(['completed', 'completed']);
    expect(ordersPosted(fleet.acme, ACME(run.id)) + ordersPosted(fleet.beta, BETA(run.id))).toBe(2);
    const got = await t.post(`/ucp/v1/replenishment/runs/${run.id}/receive`, { delivered: [{ slot_id: 'FLEET-1-TEA', quantity: 12 }] }).expect(200);
    const tea = run.lines.find((l: Json) => l.slot_id === 'FLEET-1-TEA');
    expect(got.body.delivered[0]).toEqual({ slot_id: 'FLEET-1-TEA', quantity: 12, stock_before: 2, stock_after: 14, ordered_each: tea.ordered_each, shortfall: Math.max(0, tea.ordered_each - 12), received_at: expect.stringMatching(/\+08:00$/) });
    // One receive delivers the run: the lines it did not list are closed with their whole quantity as shortfall.
    expect(got.body.status).toBe('delivered');
    const others = run.lines.filter((l: Json) => l.slot_id !== 'FLEET-1-TEA');
    expect(got.body.delivered.slice(1)).toEqual(others.map((l: Json) => ({ slot_id: l.slot_id, quantity: 0, ordered_each: l.ordered_each, shortfall: l.ordered_each, closed: true, stock_before: null, stock_after: null })));
  });
});
