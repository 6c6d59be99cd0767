import { expectEnvelope } from '../support/envelope';
import { Fleet, FLEET_RUN_DELIVERED, startFleetWithApp } from '../support/fleet';
import { TestApp } from '../support/test-app';
import { ordersPosted } from '../support/money-fixtures';

/**
 * Replenishment on a real fleet in production (SERVICE_ENV=production, partners as real HTTP servers): every
 * planned good resolved through the SKU registry, and the simulated supplier (the default fulfiller) pricing each
 * good at the resolved supplier's price, so plan → run → place → receive works without any mock catalog.
 */
jest.setTimeout(60_000);

type Slot = Record<string, any>;
const slotOf = (plan: { slots: Slot[] }, id: string) => plan.slots.find((s) => s.slot_id === id)!;

describe('replenishment on a real fleet (production)', () => {
  let fleet: Fleet;
  let t: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => ({ fleet, t, close } = await startFleetWithApp()));
  afterAll(() => close());

  it('the plan resolves each slot through the SKU registry, says which alias and supplier, and names the good nobody sells', async () => {
    const res = await t.get('/ucp/v1/replenishment/plan').expect(200);
    expectEnvelope(res.body, 'success');
    const plan = res.body;
    expect(plan.fulfiller).toEqual({ kind: 'simulated_supplier', namespace: 'sim-supply' });
    const cola = slotOf(plan, 'FLEET-1-COLA');
    expect(cola).toMatchObject({ carried_by_fulfiller: true, target: 14, quantity_each: 10, unit: 'BX', contains: 24, unit_price: { amount: 4800, currency: 'CNY' } });
    expect(cola.supply).toEqual({
      item: { id: 'acme-supply:COLA' },
      namespace: 'acme-supply',
      vendor_sku: 'COLA',
      alias: { sku_id: 'acme-supply:COLA', source: 'vendor' },
      chosen_because: 'default_supplier',
      ordered_from: 'sim-supply',
      candidates: [{ id: 'acme-supply:COLA', each_price: { amount: 200, currency: 'CNY' } }],
    });
    const tea = slotOf(plan, 'FLEET-1-TEA');
    expect(tea).toMatchObject({ carried_by_fulfiller: true, quantity_each: 12, unit: 'BX', contains: 6, quantity: 2, cost_estimate: { amount: 3600, currency: 'CNY' } });
    expect(tea.supply).toMatchObject({ item: { id: 'beta-supply:BT-9' }, alias: { source: 'barcode' }, chosen_because: 'lowest_each_price' });
    const nuts = slotOf(plan, 'FLEET-2-NUTS');
    expect(nuts).toMatchObject({ carried_by_fulfiller: false, supply: null, cost_estimate: null, quantity_each: 13 });
    const notCarried = plan.messages.filter((m: { code: string }) => m.code === 'not_carried');
    expect(notCarried).toHaveLength(1);
    expect(notCarried[0]).toMatchObject({ severity: 'warning', path: `$.slots[${plan.slots.indexOf(nuts)}]` });
    expect(notCarried[0].content).toContain('acme-machine:NUTS');
    // The registry does suggest beta's product of the same title, but a suggested alias is never used to order.
    const sku = (await t.get('/ucp/v1/skus/acme-machine:NUTS').expect(200)).body;
    expect(sku.aliases).toContainEqual({ sku_id: 'beta-supply:BX-1', source: 'suggested', confirmed_at: null });
    expect(sku.purchasable_from).toEqual([]);
    // Both machines need 10 Cola: 20 each, one box of 24 (not one box per machine).
    expect(plan.orders).toEqual([{ supplier: 'sim-supply', lines: 2, units_each: 24 + 12, cost_estimate: { amount: 4800 + 3600, currency: 'CNY' } }]);
    expect(plan.totals.cost_estimate).toEqual({ amount: 8400, currency: 'CNY' });
  });

  it('for supply_checkout each slot is planned with its resolved supplier, and its lead time', async () => {
    const plan = (await t.get('/ucp/v1/replenishment/plan?fulfiller=supply_checkout').expect(200)).body;
    expect(plan.fulfiller).toEqual({ kind: 'supply_checkout', namespace: null, namespaces: ['acme-supply', 'beta-supply'] });
    expect(slotOf(plan, 'FLEET-2-COLA').lead_time).toEqual({ days: 2, sigma_days: 0, source: 'stated', samples: 0, fulfiller: 'acme-supply' });
    expect(slotOf(plan, 'FLEET-1-TEA').supply.ordered_from).toBe('beta-supply');
    expect(slotOf(plan, 'FLEET-2-NUTS').lead_time.fulfiller).toBeNull();
    expect(plan.orders.map((o: { supplier: string }) => o.supplier)).toEqual(['acme-supply', 'beta-supply']);
  });

  it('a stored manual alias makes a good purchasable; a suggested one never does', async () => {
    // The operator confirms the suggestion.
    await t.put('/ucp/v1/skus/acme-machine:NUTS/aliases', { aliases: [{ sku_id: 'beta-supply:BX-1', source: 'manual' }] }).expect(200);
    try {
      const plan = (await t.get('/ucp/v1/replenishment/plan').expect(200)).body;
      expect(slotOf(plan, 'FLEET-2-NUTS').supply).toMatchObject({ item: { id: 'beta-supply:BX-1' }, alias: { source: 'manual' } });
      expect(plan.messages.map((m: { code: string }) => m.code)).not.toContain('not_carried');
    } finally {
      await t.put('/ucp/v1/skus/acme-machine:NUTS/aliases', { aliases: [] }).expect(200);
    }
  });

  it('simulated supplier: plan → run → place → receive, priced at the resolved suppliers; no real supplier is called', async () => {
    const created = await t.post('/ucp/v1/replenishment/runs').expect(201);
    const run = created.body;
    expect(run).toMatchObject({ status: 'ready', cost_is_estimated: true, fulfiller: { kind: 'simulated_supplier', namespace: 'sim-supply' } });
    expect(run.total_cost_estimate).toEqual({ amount: 8400, currency: 'CNY' });
    expect(run.lines.map((l: Slot) => l.slot_id).sort()).toEqual(['FLEET-1-COLA', 'FLEET-1-TEA', 'FLEET-2-COLA']);
    expect(created.body.messages.map((m: { code: string }) => m.code)).toContain('not_carried');
    // The per-slot split of the one Cola box: 10 and 10 + the 4 spare.
    const colas = run.lines.filter((l: Slot) => l.item.id === 'acme-machine:COLA').map((l: Slot) => l.ordered_each);
    expect(colas).toEqual([10, 14]);
    expect(run.lines.reduce((s: number, l: Slot) => s + l.cost_estimate.amount, 0)).toBe(8400);

    const placed = await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).expect(200);
    expect(placed.body.status).toBe('placed');
    expect(ordersPosted(fleet.acme, run.id) + ordersPosted(fleet.beta, run.id)).toBe(0);

    const got = await t
      .post(`/ucp/v1/replenishment/runs/${run.id}/receive`, { delivered: FLEET_RUN_DELIVERED })
      .expect(200);
    expect(got.body.status).toBe('delivered');
    expect(got.body.delivered).toEqual([
      { slot_id: 'FLEET-1-COLA', quantity: 10, stock_before: 4, stock_after: 14, ordered_each: 10, shortfall: 0, received_at: expect.stringMatching(/\+08:00$/) },
      { slot_id: 'FLEET-2-COLA', quantity: 14, stock_before: 4, stock_after: 18, ordered_each: 14, shortfall: 0, received_at: expect.stringMatching(/\+08:00$/) },
      { slot_id: 'FLEET-1-TEA', quantity: 12, stock_before: 2, stock_after: 14, ordered_each: 12, shortfall: 0, received_at: expect.stringMatching(/\+08:00$/) },
    ]);
  });
});
