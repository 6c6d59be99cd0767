import { DataSource } from 'typeorm';
import { SupplyCatalogService } from '../../src/supply-catalog/supply-catalog.service';
import { PartnerError, SupplyProduct } from '../../src/partners/adapter.types';
import { PartnerRegistry } from '../../src/partners/registry/partner-registry';
import { expectEnvelope, expectError } from '../support/envelope';
import { boxProducts, DemandCases, lineOf, noonDaysAgo, NS, range, seedDemandCases, seedLocation, seedSales, seedSlot, setGuards } from '../support/replenishment-demand';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';

/**
 * The replenishment plan over HTTP on a real database: demand (settled, paid sales only; stocked-out days excluded;
 * fallback with too little history), the order-up-to policy with boxes, a catalog outage, and the main flow
 * plan → run → place → receive on both databases. Runs themselves: replenishment-runs.e2e-spec.ts.
 */
jest.setTimeout(60_000);

describe('replenishment plan (PostgreSQL)', () => {
  let t: TestApp;
  let products: SupplyProduct[];
  let slot: DemandCases['slot'];

  beforeAll(async () => {
    t = await startTestApp({ env: { SERVICE_GUARDS: undefined } });
    await setGuards(t, 10_000_000);
    ({ products, slot } = await seedDemandCases(t));
  });
  afterAll(() => t.close());

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
    expect(a.lead_time).toEqual({ days: 2, sigma_days: 0, source: 'stated', samples: 0, fulfiller: 'sim-supply' });
    expect(a).toMatchObject({ stock: 4, capacity: 20, reorder_point: 4, target: 18, quantity_each: 14, unit: 'BX', contains: pA.packSize });
    expect(a.quantity).toBe(Math.ceil(14 / pA.packSize));
    expect(a.cost_estimate).toEqual({ amount: a.quantity * pA.packPriceFen, currency: 'CNY' });
    expect(a.unit_price).toEqual({ amount: pA.packPriceFen, currency: 'CNY' });

    const b = lineOf(plan, slot.B);
    // 60 units over 20 in-stock days = 3/day (not 2/day over 30); S = 27, within the room 24 + 3 × 2 (capacity plus
    // what sells during the 2-day lead time: the order arrives into a slot that has sold meanwhile).
    expect(b.demand).toMatchObject({ rate_per_day: 3, measured: true, in_stock_days: 20, stocked_out_days: 10 });
    expect(b).toMatchObject({ target: 27, capped_at_capacity: false, quantity_each: 27 });

    const c = lineOf(plan, slot.C);
    expect(c.demand).toMatchObject({ rate_per_day: 1, sigma_daily: 1, measured: false, source: 'stated', in_stock_days: 2 });
    expect(c.demand.note).toMatch(/only 2 in-stock day/);
    // S = ceil(1 × 9 + 1.65 × 1 × 3) = 14, capped at the room 10 + ceil(1 × 2) = 12; need 9.
    expect(c).toMatchObject({ target: 12, capped_at_capacity: true, quantity_each: 9 });

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
