import { warning } from '../../../src/common/envelope/envelope';
import { PLAN_POLICY_NAME, renderPlan } from '../../../src/replenishment/api/plan.view';
import { Plan, PlanLine } from '../../../src/replenishment/plan/plan.types';

/** A fixed domain plan renders as the API's JSON: field names, prices, +08:00 times, optional keys, key order. */

const demand = {
  ratePerDay: 2,
  sigmaDaily: 0.5,
  measured: true,
  windowDays: 28,
  observedDays: 28,
  inStockDays: 28,
  stockedOutDays: 0,
  unitsSold: 56,
  fallbackReason: null,
};

const supplied: PlanLine = {
  slotId: 'm1:A1',
  locationId: 'm1',
  skuId: 'vend:COLA',
  vendorSku: 'COLA',
  title: 'Cola',
  stock: 4,
  onOrder: 3,
  onOrderRuns: [{ id: 'run-1', status: 'placed', units: 3 }],
  capacity: 20,
  demand,
  leadTime: { days: 2.5, sigmaDays: 0.8, source: 'measured', samples: 3, fulfiller: 'acme' },
  reviewPeriodDays: 7,
  safetyStock: 2.5,
  reorderPoint: 8,
  target: 20,
  cappedAtCapacity: true,
  fromDepot: 0,
  depotHeld: 0,
  depotIncoming: 0,
  quantityEach: 16,
  quantity: 2,
  unit: 'BX',
  contains: 12,
  orderedEach: 24,
  unitPriceFen: 4800,
  costEstimateFen: 9600,
  carriedByFulfiller: true,
  supply: {
    skuId: 'acme:COLA-12',
    namespace: 'acme',
    vendorSku: 'COLA-12',
    via: 'barcode',
    chosenBecause: 'lowest_each_price',
    orderedFrom: 'acme',
    candidates: [
      { skuId: 'acme:COLA-12', eachPriceFen: 400 },
      { skuId: 'bolt:COLA', eachPriceFen: 450 },
    ],
  },
};

const unsold: PlanLine = {
  ...supplied,
  slotId: 'm1:A2',
  skuId: 'vend:TEA',
  vendorSku: 'TEA',
  title: 'Tea',
  capacity: null,
  demand: { ...demand, ratePerDay: 1, measured: false, inStockDays: 2, fallbackReason: 'only 2 in-stock day(s)' },
  leadTime: { days: 3, sigmaDays: 1, source: 'stated', samples: 0, fulfiller: null },
  cappedAtCapacity: false,
  quantityEach: 5,
  quantity: 5,
  unit: 'EA',
  contains: 1,
  orderedEach: 5,
  unitPriceFen: null,
  costEstimateFen: null,
  carriedByFulfiller: false,
  supply: null,
};

const plan: Plan = {
  computedAt: new Date('2026-11-24T02:00:00.000Z'),
  fulfiller: { kind: 'supply_checkout', namespace: 'acme', namespaces: ['acme'] },
  policy: {
    reviewPeriodDays: 7,
    reviewPeriodSource: 'setting',
    serviceLevelZ: 1.65,
    salesWindowDays: 28,
    window: { from: new Date('2026-10-26T16:00:00.000Z'), to: new Date('2026-11-23T16:00:00.000Z') },
    minHistoryDays: 7,
    fallbackRatePerDay: 1,
    statedLeadTimeDays: 3,
  },
  leadTimes: [{ fulfiller: 'acme', kind: 'supply_checkout', days: 2.5, sigmaDays: 0.8, source: 'measured', samples: 3 }],
  orders: [{ supplier: 'acme', lines: 1, unitsEach: 24, costEstimateFen: 9600 }],
  lines: [supplied, unsold],
  totals: { slots: 2, slotsToOrder: 2, unitsEach: 24, costEstimateFen: 9600, fromDepotEach: 0 },
  messages: [warning('not_carried', 'vend:TEA (Tea) needs stock', '$.slots[1]')],
};

const cny = (amount: number) => ({ amount, currency: 'CNY' });

const suppliedJson = {
  slot_id: 'm1:A1',
  location: 'm1',
  item: { id: 'vend:COLA' },
  vendor_sku: 'COLA',
  title: 'Cola',
  stock: 4,
  on_order: 3,
  on_order_runs: [{ id: 'run-1', status: 'placed', units: 3 }],
  capacity: 20,
  demand: { rate_per_day: 2, sigma_daily: 0.5, measured: true, source: 'measured', window_days: 28, observed_days: 28, in_stock_days: 28, stocked_out_days: 0, units_sold: 56 },
  lead_time: { days: 2.5, sigma_days: 0.8, source: 'measured', samples: 3, fulfiller: 'acme' },
  review_period_days: 7,
  safety_stock: 2.5,
  reorder_point: 8,
  target: 20,
  capped_at_capacity: true,
  from_depot: 0,
  depot_held: 0,
  depot_incoming: 0,
  quantity_each: 16,
  quantity: 2,
  unit: 'BX',
  contains: 12,
  ordered_each: 24,
  unit_price: cny(4800),
  cost_estimate: cny(9600),
  carried_by_fulfiller: true,
  supply: {
    item: { id: 'acme:COLA-12' },
    namespace: 'acme',
    vendor_sku: 'COLA-12',
    alias: { sku_id: 'acme:COLA-12', source: 'barcode' },
    chosen_because: 'lowest_each_price',
    ordered_from: 'acme',
    candidates: [
      { id: 'acme:COLA-12', each_price: cny(400) },
      { id: 'bolt:COLA', each_price: cny(450) },
    ],
  },
};

const unsoldJson = {
  ...suppliedJson,
  slot_id: 'm1:A2',
  item: { id: 'vend:TEA' },
  vendor_sku: 'TEA',
  title: 'Tea',
  capacity: null,
  demand: {
    rate_per_day: 1,
    sigma_daily: 0.5,
    measured: false,
    source: 'stated',
    window_days: 28,
    observed_days: 28,
    in_stock_days: 2,
    stocked_out_days: 0,
    units_sold: 56,
    note: 'only 2 in-stock day(s)',
  },
  lead_time: { days: 3, sigma_days: 1, source: 'stated', samples: 0, fulfiller: null },
  capped_at_capacity: false,
  quantity_each: 5,
  quantity: 5,
  unit: 'EA',
  contains: 1,
  ordered_each: 5,
  unit_price: null,
  cost_estimate: null,
  carried_by_fulfiller: false,
  supply: null,
};

const expected = {
  computed_at: '2026-11-24T10:00:00.000+08:00',
  fulfiller: { kind: 'supply_checkout', namespace: 'acme', namespaces: ['acme'] },
  policy: {
    name: PLAN_POLICY_NAME,
    review_period_days: 7,
    review_period_source: 'setting',
    service_level_z: 1.65,
    sales_window_days: 28,
    window: { from: '2026-10-27T00:00:00.000+08:00', to: '2026-11-24T00:00:00.000+08:00' },
    min_history_days: 7,
    fallback_rate_per_day: 1,
    stated_lead_time_days: 3,
  },
  lead_times: [{ fulfiller: 'acme', kind: 'supply_checkout', days: 2.5, sigma_days: 0.8, source: 'measured', samples: 3 }],
  slots: [suppliedJson, unsoldJson],
  totals: { slots: 2, slots_to_order: 2, units_each: 24, cost_estimate: cny(9600), from_depot_each: 0 },
  orders: [{ supplier: 'acme', lines: 1, units_each: 24, cost_estimate: cny(9600) }],
  cost_is_estimated: true,
  messages: [warning('not_carried', 'vend:TEA (Tea) needs stock', '$.slots[1]')],
};

describe('plan.view renderPlan', () => {
  it('renders a supplier plan as the API JSON, byte for byte (key order included)', () => {
    expect(JSON.stringify(renderPlan(plan))).toBe(JSON.stringify(expected));
  });

  it('a machine-restock plan has no orders, no namespaces and no supply key on its lines', () => {
    const { supply: _omitted, ...machineLine } = supplied;
    const machine: Plan = {
      ...plan,
      fulfiller: { kind: 'machine_restock', namespace: null, namespaces: null },
      leadTimes: [{ fulfiller: 'vend', kind: 'machine_restock', days: 3, sigmaDays: 1, source: 'stated', samples: 0 }],
      orders: null,
      lines: [{ ...machineLine, unitPriceFen: null, costEstimateFen: null }],
      totals: { slots: 1, slotsToOrder: 1, unitsEach: 24, costEstimateFen: 0, fromDepotEach: 0 },
      messages: [],
    };
    const view = renderPlan(machine);
    expect(view.fulfiller).toEqual({ kind: 'machine_restock', namespace: null });
    expect(Object.keys(view)).toEqual(['computed_at', 'fulfiller', 'policy', 'lead_times', 'slots', 'totals', 'cost_is_estimated', 'messages']);
    expect(view.slots[0]).not.toHaveProperty('supply');
    expect(view.slots[0]).toMatchObject({ unit_price: null, cost_estimate: null });
    expect(view.totals.cost_estimate).toEqual(cny(0));
  });
});
