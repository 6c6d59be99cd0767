import { DataSource } from 'typeorm';
import { startOfDayPlus8 } from '../../src/common/time';
import { SupplyCatalogService } from '../../src/catalog/supply-catalog.service';
import { PartnerError, SupplyProduct } from '../../src/partners/adapter.types';
import { PartnerRegistry } from '../../src/partners/registry/partner-registry';
import { expectEnvelope, expectError } from '../support/envelope';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';

/**
 * Replenishment over HTTP on a real database: the plan's demand (settled, paid sales only; stocked-out days
 * excluded; fallback with too little history), the order-up-to policy with boxes, runs (budget approval, place
 * under the kill switch and Idempotency-Key, receive capped at capacity) and the measured lead time.
 */
jest.setTimeout(60_000);

const DAY = 86_400_000;
const NS = 'sim-machine';
const LOC = 'L-repl-1';

/** Noon (+08:00) of the day `k` days before today. */
function noonDaysAgo(k: number): Date {
  return new Date(startOfDayPlus8(new Date()).getTime() - k * DAY + 12 * 3600_000);
}

interface Sale {
  slot: string;
  sku: string;
  daysAgo: number;
  qty: number;
  status?: string;
  trade?: string;
}

async function seedLocation(ds: DataSource, id: string, namespace = NS): Promise<void> {
  await ds.query(`INSERT INTO locations (id, namespace, name) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`, [id, namespace, `machine ${id}`]);
}

async function seedSlot(ds: DataSource, loc: string, sku: string, stock: number, capacity: number | null, namespace = NS): Promise<string> {
  const id = `${loc}-${sku}`;
  await ds.query(
    `INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock, capacity) VALUES ($1,$2,$3,$4,$5,$6,500,$7,$8)`,
    [id, loc, namespace, sku, `${namespace}:${sku}`, `title ${sku}`, stock, capacity],
  );
  return id;
}

let orderSeq = 0;
async function seedSales(ds: DataSource, loc: string, sales: Sale[], namespace = NS): Promise<void> {
  for (const s of sales) {
    const id = `O-${++orderSeq}-${Math.random().toString(36).slice(2, 8)}`;
    const at = noonDaysAgo(s.daysAgo);
    await ds.query(
      `INSERT INTO sale_orders (id, namespace, location_id, total_fen, taken_at, has_taken_at, trade_status) VALUES ($1,$2,$3,$4,$5,true,$6)`,
      [id, namespace, loc, 500 * s.qty, at, s.trade ?? 'settled'],
    );
    await ds.query(
      `INSERT INTO sale_lines (order_id, line_no, vendor_sku, sku_id, slot_id, quantity, price_fen, status) VALUES ($1,1,$2,$3,$4,$5,500,$6)`,
      [id, s.sku, `${namespace}:${s.sku}`, s.slot, s.qty, s.status ?? 'paid'],
    );
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function boxProducts(t: TestApp): Promise<SupplyProduct[]> {
  const { products } = await t.app.get(PartnerRegistry).simulatedSupplier.getCatalog();
  return products.filter((p) => p.packSize > 1);
}

async function setGuards(t: TestApp, perOrderFen: number): Promise<void> {
  await t
    .put('/ucp/v1/admin/guards', {
      killSwitch: false,
      budget: { perOrderFen, dailyFen: 10_000_000, monthlyFen: 100_000_000 },
      priceCapPerItem: { maxMoveFen: 200, maxMovePercent: 25 },
      probationVendors: [],
      hardNoGo: { vendors: [], skus: [] },
    })
    .expect(200);
}

describe('replenishment plan and runs (PostgreSQL)', () => {
  let t: TestApp;
  let ds: DataSource;
  let products: SupplyProduct[];
  const slot: Record<string, string> = {};
  const sku: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ env: { SERVICE_GUARDS: undefined } });
    ds = t.app.get(DataSource);
    await setGuards(t, 10_000_000);
    products = await boxProducts(t);
    [sku.A, sku.B, sku.C, sku.D] = products.slice(0, 4).map((p) => p.vendorSku);
    await seedLocation(ds, LOC);
    slot.A = await seedSlot(ds, LOC, sku.A, 4, 20);
    slot.B = await seedSlot(ds, LOC, sku.B, 0, 24);
    slot.C = await seedSlot(ds, LOC, sku.C, 3, 10);
    slot.D = await seedSlot(ds, LOC, sku.D, 5, 40);
    const sales: Sale[] = [];
    // A: 2 a day for 30 days, plus a refunded line, a cancelled line and an unsettled order that must not count.
    for (const k of range(1, 30)) sales.push({ slot: slot.A, sku: sku.A, daysAgo: k, qty: 2 });
    sales.push({ slot: slot.A, sku: sku.A, daysAgo: 3, qty: 5, status: 'refunded' });
    sales.push({ slot: slot.A, sku: sku.A, daysAgo: 4, qty: 5, status: 'cancelled' });
    sales.push({ slot: slot.A, sku: sku.A, daysAgo: 5, qty: 7, trade: 'in_progress' });
    sales.push({ slot: slot.A, sku: sku.A, daysAgo: 0, qty: 9 }); // today: outside the window of complete days
    sales.push({ slot: slot.A, sku: sku.A, daysAgo: 31, qty: 9 }); // before the window
    // B: 3 a day until 11 days ago, then empty (stock 0 now): the last 10 days are stocked out, not zero demand.
    for (const k of range(11, 30)) sales.push({ slot: slot.B, sku: sku.B, daysAgo: k, qty: 3 });
    // C: only 2 days of sales: too little history.
    sales.push({ slot: slot.C, sku: sku.C, daysAgo: 2, qty: 4 }, { slot: slot.C, sku: sku.C, daysAgo: 1, qty: 4 });
    // D: 1 a day, except 6..10 days ago when snapshots saw it empty.
    for (const k of range(1, 30).filter((k) => k < 6 || k > 10)) sales.push({ slot: slot.D, sku: sku.D, daysAgo: k, qty: 1 });
    await seedSales(ds, LOC, sales);
    for (const k of range(6, 10)) {
      const day = new Date(noonDaysAgo(k).getTime() + 8 * 3600_000).toISOString().slice(0, 10);
      await ds.query(`INSERT INTO slot_stock_days (slot_id, day, min_stock) VALUES ($1, $2, 0)`, [slot.D, day]);
    }
  });
  afterAll(() => t.close());

  const lineOf = (plan: { slots: { slot_id: string }[] }, s: string) => plan.slots.find((l) => l.slot_id === s) as Record<string, any>;

  it('plans per slot with provenance: demand, lead time, stock, capacity, reorder point, target, boxes and cost', async () => {
    const res = await t.get('/ucp/v1/replenishment/plan').expect(200);
    expectEnvelope(res.body, 'success');
    const plan = res.body;
    expect(plan.cost_is_estimated).toBe(true);
    expect(plan.fulfiller).toEqual({ kind: 'simulated_supplier', namespace: 'sim-supply' });
    expect(plan.computed_at).toMatch(/\+08:00$/);
    const pA = products[0];
    const a = lineOf(plan, slot.A);
    // d = 2, σ = 0, L = 2 (stated), R = 7: S = 18 ≤ capacity 20; need 18 − 4 = 14 each.
    expect(a.demand).toMatchObject({ rate_per_day: 2, sigma_daily: 0, measured: true, source: 'measured', in_stock_days: 30, stocked_out_days: 0, units_sold: 60 });
    expect(a.lead_time).toEqual({ days: 2, source: 'stated', samples: 0, fulfiller: 'sim-supply' });
    expect(a).toMatchObject({ stock: 4, capacity: 20, reorder_point: 4, target: 18, quantity_each: 14, unit: 'BX', contains: pA.packSize });
    expect(a.quantity).toBe(Math.ceil(14 / pA.packSize));
    expect(a.cost_estimate).toEqual({ amount: a.quantity * pA.packPriceFen, currency: 'CNY' });
    expect(a.unit_price).toEqual({ amount: pA.packPriceFen, currency: 'CNY' });

    const b = lineOf(plan, slot.B);
    // 60 units over 20 in-stock days = 3/day (not 2/day over 30); S = 27 capped at 24.
    expect(b.demand).toMatchObject({ rate_per_day: 3, measured: true, in_stock_days: 20, stocked_out_days: 10 });
    expect(b).toMatchObject({ target: 24, capped_at_capacity: true, quantity_each: 24 });

    const c = lineOf(plan, slot.C);
    expect(c.demand).toMatchObject({ rate_per_day: 1, sigma_daily: 1, measured: false, source: 'stated', in_stock_days: 2 });
    expect(c.demand.note).toMatch(/only 2 in-stock day/);
    // S = ceil(1 × 9 + 1.65 × 1 × 3) = 14, capped at 10; need 7.
    expect(c).toMatchObject({ target: 10, quantity_each: 7 });

    const d = lineOf(plan, slot.D);
    expect(d.demand).toMatchObject({ rate_per_day: 1, measured: true, in_stock_days: 25, stocked_out_days: 5 });
    expect(plan.totals.slots_to_order).toBe(4);
  });

  it('filters the plan by location and refuses a malformed one', async () => {
    const res = await t.get('/ucp/v1/replenishment/plan?location=nowhere').expect(200);
    expect(res.body.slots).toEqual([]);
    expectError(await t.get('/ucp/v1/replenishment/plan?location=bad%20id'), 400, 'invalid');
    expectError(await t.get('/ucp/v1/replenishment/plan?fulfiller=drone'), 400, 'invalid');
  });

  it('a catalog outage is a warning on the plan, never a plan that silently lacks costs', async () => {
    const sim = t.app.get(PartnerRegistry).simulatedSupplier;
    const original = sim.getCatalog.bind(sim);
    t.app.get(SupplyCatalogService).invalidate();
    sim.getCatalog = () => Promise.reject(new PartnerError('unreachable', 'sim-supply', 'down for the test'));
    try {
      const res = await t.get('/ucp/v1/replenishment/plan').expect(200);
      expect(res.body.messages.map((m: { code: string }) => m.code)).toContain('catalog_unavailable');
      expect(lineOf(res.body, slot.A).cost_estimate).toBeNull();
      expectError(await t.post('/ucp/v1/replenishment/runs'), 502, 'upstream_unreachable');
    } finally {
      sim.getCatalog = original;
    }
  });

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
    const got = await rcv({ delivered: [{ slot_id: slot.A, quantity: 24 }, { slot_id: slot.C, quantity: 3 }, { slot_id: slot.D, quantity: 0 }], note: 'van 2' }).expect(200);
    expect(got.body).toMatchObject({ status: 'delivered', note: 'van 2' });
    expect(got.body.delivered).toEqual([
      { slot_id: slot.A, quantity: 24, stock_before: 4, stock_after: 20 },
      { slot_id: slot.C, quantity: 3, stock_before: 3, stock_after: 6 },
      { slot_id: slot.D, quantity: 0, stock_before: 5, stock_after: 5 },
    ]);
    const stocks = (await ds.query(`SELECT id, stock FROM slots WHERE location_id = $1 ORDER BY id`, [LOC])) as { id: string; stock: number }[];
    expect(Object.fromEntries(stocks.map((s) => [s.id, s.stock]))).toMatchObject({ [slot.A]: 20, [slot.B]: 0, [slot.C]: 6, [slot.D]: 5 });
    expectError(await rcv({ delivered: [{ slot_id: slot.A, quantity: 1 }] }), 409, 'already_delivered');
    expectError(await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`), 409, 'already_placed');

    const plan = await t.get('/ucp/v1/replenishment/plan').expect(200);
    expect(lineOf(plan.body, slot.A).lead_time).toEqual({ days: 3, source: 'measured', samples: 1, fulfiller: 'sim-supply' });
    expect(plan.body.lead_times).toEqual([{ fulfiller: 'sim-supply', kind: 'simulated_supplier', days: 3, source: 'measured', samples: 1 }]);
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

describe.each(BOTH_DATABASES)('replenishment main flow on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
  });
  afterAll(() => t.close());

  it('plan → run → place → receive', async () => {
    const ds = t.app.get(DataSource);
    const [p] = await boxProducts(t);
    await seedLocation(ds, 'L-flow');
    const s = await seedSlot(ds, 'L-flow', p.vendorSku, 1, 30);
    await seedSales(ds, 'L-flow', range(1, 10).map((k) => ({ slot: s, sku: p.vendorSku, daysAgo: k, qty: 2 })));
    const plan = (await t.get('/ucp/v1/replenishment/plan').expect(200)).body;
    const line = plan.slots.find((l: { slot_id: string }) => l.slot_id === s);
    expect(line).toMatchObject({ target: 18, quantity_each: 17, unit: 'BX', quantity: Math.ceil(17 / p.packSize) });
    const run = (await t.post('/ucp/v1/replenishment/runs').expect(201)).body;
    expect(run.status).toBe('ready');
    await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).expect(200);
    const got = await t.post(`/ucp/v1/replenishment/runs/${run.id}/receive`, { delivered: [{ slot_id: s, quantity: 17 }] }).expect(200);
    expect(got.body.delivered[0]).toMatchObject({ stock_before: 1, stock_after: 18 });
  });

  it('the fleet plan notices sales and snapshots (re)ingested into its window after it was computed', async () => {
    const ds = t.app.get(DataSource);
    const s = (await ds.query(`SELECT id, vendor_sku FROM slots WHERE location_id = 'L-flow'`))[0] as { id: string; vendor_sku: string };
    const demandOf = async () =>
      (await t.get('/ucp/v1/replenishment/plan').expect(200)).body.slots.find((l: { slot_id: string }) => l.slot_id === s.id).demand;
    expect(await demandOf()).toMatchObject({ units_sold: 20, observed_days: 10 });
    await ds.query(
      `INSERT INTO sale_orders (id, namespace, location_id, total_fen, taken_at, has_taken_at, trade_status) VALUES ('LATE-1', $1, 'L-flow', 5000, $2, true, 'settled')`,
      [NS, noonDaysAgo(2)],
    );
    await ds.query(
      `INSERT INTO sale_lines (order_id, line_no, vendor_sku, sku_id, slot_id, quantity, price_fen, status) VALUES ('LATE-1', 1, $1, $2, $3, 10, 500, 'paid')`,
      [s.vendor_sku, `${NS}:${s.vendor_sku}`, s.id],
    );
    expect(await demandOf()).toMatchObject({ units_sold: 30 });
    // A revision (the line refunded) re-ingested by the sync.
    await ds.query(`UPDATE sale_lines SET status = 'refunded' WHERE order_id = 'LATE-1'`);
    await ds.query(`UPDATE sale_orders SET ingested_at = now() WHERE id = 'LATE-1'`);
    expect(await demandOf()).toMatchObject({ units_sold: 20 });
    // A snapshot of an earlier day: the slot was seen 15 days ago.
    const day = new Date(noonDaysAgo(15).getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    await ds.query(`INSERT INTO slot_stock_days (slot_id, day, min_stock) VALUES ($1, $2, 4)`, [s.id, day]);
    expect(await demandOf()).toMatchObject({ units_sold: 20, observed_days: 15 });
  });
});
