/**
 * The UCP JSON of a replenishment plan (GET /replenishment/plan), rendered once from the domain plan (pure: no
 * Nest, no TypeORM). Its declared type is the OpenAPI `PlanResponse` (plan.responses.ts): the compiler ties them.
 */
import { cny as price } from '../../common/money';
import { toPlus8 } from '../../common/time';
import type { Plan, PlanLine, PlanSupply } from '../plan/plan.types';
import type { PlanLineView, PlanResponse, PlanSupplyView } from './plan.responses';

export const PLAN_POLICY_NAME = 'periodic review, order-up-to level (R, S) with safety stock; docs/replenishment-policy.md';

/** The body of the plan's answer (`ok()` adds the `ucp` header). */
export type PlanBody = Omit<PlanResponse, 'ucp'>;

const priceOrNull = (amount: number | null) => (amount === null ? null : price(amount));

export function renderPlan(plan: Plan): PlanBody {
  const { fulfiller: f, policy: p, totals: t } = plan;
  return {
    computed_at: toPlus8(plan.computedAt),
    fulfiller: { kind: f.kind, namespace: f.namespace, ...(f.namespaces ? { namespaces: f.namespaces } : {}) },
    policy: {
      name: PLAN_POLICY_NAME,
      review_period_days: p.reviewPeriodDays,
      review_period_source: p.reviewPeriodSource,
      service_level_z: p.serviceLevelZ,
      sales_window_days: p.salesWindowDays,
      window: { from: toPlus8(p.window.from), to: toPlus8(p.window.to) },
      min_history_days: p.minHistoryDays,
      fallback_rate_per_day: p.fallbackRatePerDay,
      stated_lead_time_days: p.statedLeadTimeDays,
    },
    lead_times: plan.leadTimes.map((lt) => ({ fulfiller: lt.fulfiller, kind: lt.kind, days: lt.days, sigma_days: lt.sigmaDays, source: lt.source, samples: lt.samples })),
    slots: plan.lines.map(renderPlanLine),
    totals: { slots: t.slots, slots_to_order: t.slotsToOrder, units_each: t.unitsEach, cost_estimate: price(t.costEstimateFen), from_depot_each: t.fromDepotEach },
    ...(plan.orders
      ? {
          orders: plan.orders.map((o) => ({ supplier: o.supplier, lines: o.lines, units_each: o.unitsEach, cost_estimate: price(o.costEstimateFen) })),
        }
      : {}),
    cost_is_estimated: true,
    messages: plan.messages,
  };
}

export function renderPlanLine(l: PlanLine): PlanLineView {
  const d = l.demand;
  const line: PlanLineView = {
    slot_id: l.slotId,
    location: l.locationId,
    item: { id: l.skuId },
    vendor_sku: l.vendorSku,
    title: l.title,
    stock: l.stock,
    on_order: l.onOrder,
    on_order_runs: l.onOrderRuns.map((r) => ({ id: r.id, status: r.status, units: r.units })),
    capacity: l.capacity,
    demand: {
      rate_per_day: d.ratePerDay,
      sigma_daily: d.sigmaDaily,
      measured: d.measured,
      source: d.measured ? 'measured' : 'stated',
      window_days: d.windowDays,
      observed_days: d.observedDays,
      in_stock_days: d.inStockDays,
      stocked_out_days: d.stockedOutDays,
      units_sold: d.unitsSold,
      ...(d.fallbackReason ? { note: d.fallbackReason } : {}),
    },
    lead_time: { days: l.leadTime.days, sigma_days: l.leadTime.sigmaDays, source: l.leadTime.source, samples: l.leadTime.samples, fulfiller: l.leadTime.fulfiller },
    review_period_days: l.reviewPeriodDays,
    safety_stock: l.safetyStock,
    reorder_point: l.reorderPoint,
    target: l.target,
    capped_at_capacity: l.cappedAtCapacity,
    from_depot: l.fromDepot,
    depot_held: l.depotHeld,
    depot_incoming: l.depotIncoming,
    quantity_each: l.quantityEach,
    quantity: l.quantity,
    unit: l.unit,
    contains: l.contains,
    ordered_each: l.orderedEach,
    unit_price: priceOrNull(l.unitPriceFen),
    cost_estimate: priceOrNull(l.costEstimateFen),
    carried_by_fulfiller: l.carriedByFulfiller,
  };
  if (l.supply !== undefined) line.supply = l.supply === null ? null : renderSupply(l.supply);
  return line;
}

function renderSupply(s: PlanSupply): PlanSupplyView {
  return {
    item: { id: s.skuId },
    namespace: s.namespace,
    vendor_sku: s.vendorSku,
    alias: { sku_id: s.skuId, source: s.via },
    chosen_because: s.chosenBecause,
    ordered_from: s.orderedFrom,
    candidates: s.candidates.map((c) => ({ id: c.skuId, each_price: price(c.eachPriceFen) })),
  };
}
