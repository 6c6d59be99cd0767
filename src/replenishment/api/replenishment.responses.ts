/** Response models of replenishment plans, runs and scores (OpenAPI only; see common/envelope.responses.ts). */
import { ApiProperty } from '@nestjs/swagger';
import { DateTime, FreeObject, Int } from '../../common/envelope/api-docs';
import { ItemRefView, PriceView, UcpEnvelope, UcpHeaderView, UcpMessageView } from '../../common/envelope/envelope.responses';
import type { FulfillerKind } from '../fulfiller-kind';
import type { PackUnit } from '../../partners/adapter.types';

export class PlanFulfillerView {
  kind: FulfillerKind;
  /** The fulfilling namespace; null when the plan spans several platforms or suppliers. */
  namespace: string | null;
  /** Every platform or supplier the plan orders from, when there are several. */
  namespaces?: string[];
}

export class PlanWindowView {
  @DateTime()
  from: string;
  @DateTime()
  to: string;
}

export class PlanPolicyView {
  name: string;
  @Int()
  review_period_days: number;
  /** `measured_runs`: the median gap between days runs were placed (28 days, 3+ such days); `setting`: SERVICE_REVIEW_PERIOD_DAYS. A slot's own R follows its machine's coming visits. */
  @ApiProperty({ enum: ['measured_runs', 'setting'] })
  review_period_source: string;
  service_level_z: number;
  @Int()
  sales_window_days: number;
  window: PlanWindowView;
  @Int()
  min_history_days: number;
  fallback_rate_per_day: number;
  stated_lead_time_days: number;
}

export class LeadTimeView {
  /** Days, two decimals when measured: the mean over the received lines of recent deliveries. */
  days: number;
  /** σ_L in days: the lead time's spread (sample standard deviation), which the safety stock covers too. */
  sigma_days: number;
  /** `measured` from recent deliveries, or the `stated` default. */
  source: 'measured' | 'stated';
  @Int({ minimum: 0 })
  samples: number;
}

export class SlotLeadTimeView extends LeadTimeView {
  /** Who the lead time is of; null when nobody sells the good. */
  fulfiller: string | null;
}

export class FulfillerLeadTimeView extends LeadTimeView {
  fulfiller: string;
  kind: FulfillerKind;
}

export class SupplyAliasRefView {
  sku_id: string;
  source: string;
}

export class SupplyOfferView {
  /** A supply sku_id. */
  id: string;
  each_price: PriceView;
}

/** Where a slot's good is bought: the supply sku reached through the SKU registry and why this supplier. */
export class PlanSupplyView {
  item: ItemRefView;
  namespace: string;
  vendor_sku: string;
  alias: SupplyAliasRefView;
  chosen_because: 'default_supplier' | 'lowest_each_price';
  /** Who the run orders from: the resolved supplier, or the simulated supplier standing in for it at its price. */
  ordered_from: string;
  candidates: SupplyOfferView[];
}

export class PlanSupplierOrderView {
  supplier: string;
  @Int({ minimum: 0 })
  lines: number;
  @Int({ minimum: 0 })
  units_each: number;
  cost_estimate: PriceView;
}

export class DemandView {
  rate_per_day: number;
  sigma_daily: number;
  /** False when there were too few in-stock days and the fallback rate is used. */
  measured: boolean;
  source: 'measured' | 'stated';
  @Int()
  window_days: number;
  @Int()
  observed_days: number;
  @Int()
  in_stock_days: number;
  @Int()
  stocked_out_days: number;
  @Int()
  units_sold: number;
  note?: string;
}

export class OnOrderRunView {
  id: string;
  status: string;
  @Int({ minimum: 1 })
  units: number;
}

/** One slot of the plan, with provenance (demand and lead time). */
export class PlanLineView {
  slot_id: string;
  location: string;
  item: ItemRefView;
  vendor_sku: string;
  title: string;
  @Int()
  stock: number;
  @Int({ minimum: 0, description: 'Units ordered by placed runs and not received yet: the need is `target - (stock + on_order)`.' })
  on_order: number;
  /** The runs whose open lines make up `on_order`. */
  on_order_runs: OnOrderRunView[];
  @Int({ nullable: true })
  capacity: number | null;
  demand: DemandView;
  lead_time: SlotLeadTimeView;
  @Int()
  review_period_days: number;
  safety_stock: number;
  @Int({ minimum: 0 })
  reorder_point: number;
  @Int({ minimum: 0 })
  target: number;
  capped_at_capacity: boolean;
  @Int({ minimum: 0, description: 'Units (each) served from the depot before buying: they cost nothing (fill them with `POST /depot/fill`).' })
  from_depot: number;
  @Int({ minimum: 0, description: 'Units (each) of the depot kept for this slot that do not fit on the shelf yet: not bought, served on a later plan.' })
  depot_held: number;
  @Int({ minimum: 0, description: 'Units (each) that placed runs bring to the depot beyond what their own slots take (box remainders), kept for this slot: neither filled now nor bought.' })
  depot_incoming: number;
  @Int({ minimum: 0, description: 'Units (each) to buy to reach the target: `target - (stock + on_order) - from_depot - depot_held - depot_incoming`.' })
  quantity_each: number;
  @Int({ minimum: 0, description: 'Quantity in `unit` (boxes for BX).' })
  quantity: number;
  unit: PackUnit;
  @Int({ minimum: 1 })
  contains: number;
  @Int({ minimum: 0 })
  ordered_each: number;
  unit_price: PriceView | null;
  cost_estimate: PriceView | null;
  carried_by_fulfiller: boolean;
  /** Supplier fulfillers: the good's supply provenance; null when nobody sells it (`not_carried`). */
  supply?: PlanSupplyView | null;
}

export class PlanTotalsView {
  @Int({ minimum: 0 })
  slots: number;
  @Int({ minimum: 0 })
  slots_to_order: number;
  @Int({ minimum: 0 })
  units_each: number;
  cost_estimate: PriceView;
  @Int({ minimum: 0, description: 'Units (each) the plan serves from the depot.' })
  from_depot_each: number;
}

export class PlanResponse extends UcpEnvelope {
  @DateTime()
  computed_at: string;
  fulfiller: PlanFulfillerView;
  policy: PlanPolicyView;
  lead_times: FulfillerLeadTimeView[];
  /** Supplier fulfillers: what a run would order, per supplier (needs summed per good, rounded up to the box once). */
  orders?: PlanSupplierOrderView[];
  slots: PlanLineView[];
  totals: PlanTotalsView;
  /** Always true: costs in a plan are estimates. */
  cost_is_estimated: boolean;
}

export class RunFulfillerView {
  kind: FulfillerKind;
  namespace: string | null;
  /** Machine-restock runs: every platform the run orders from. */
  namespaces?: string[];
}

export class RunLineSupplyView {
  item: ItemRefView;
  namespace: string;
  via: string;
  ordered_from: string;
}

/** A purchase order of a supply-checkout run: its checkout session (id = purchase-order number = supplier ref). */
export class RunPurchaseOrderView {
  checkout_id: string;
  supplier: string;
  /** The checkout session's status (`completed` once the supplier took the order), or `not_opened`. */
  status: 'not_opened' | 'incomplete' | 'requires_escalation' | 'ready_for_complete' | 'complete_in_progress' | 'completed' | 'canceled';
  total: PriceView;
  order_id: string | null;
}

export class RunLineView {
  slot_id: string;
  location: string;
  item: ItemRefView;
  title: string;
  unit: PackUnit;
  @Int({ minimum: 1 })
  contains: number;
  @Int({ minimum: 0 })
  quantity: number;
  @Int({ minimum: 0 })
  quantity_each: number;
  @Int({ minimum: 0 })
  ordered_each: number;
  unit_price: PriceView | null;
  cost_estimate: PriceView | null;
  @Int()
  stock_at_plan: number;
  @Int({ nullable: true })
  capacity: number | null;
  @Int()
  target: number;
  @Int({ minimum: 0, description: 'Units of this line still on order: ordered and neither received nor closed.' })
  on_order: number;
  /** Supplier runs: the supply good the slot's good resolved to and who it is ordered from. */
  supply?: RunLineSupplyView;
}

/** One closed line: what arrived, and what was ordered but never came (`shortfall`). */
export class RunDeliveredView {
  slot_id: string;
  @Int({ minimum: 0 })
  quantity: number;
  @Int({ minimum: 0 })
  ordered_each?: number;
  @Int({ minimum: 0 })
  shortfall?: number;
  /** True: closed without a delivery (`/close`, or not listed by `/receive`). */
  closed?: boolean;
  /** True: arrived at the warehouse (`/arrivals`): every unit went to the depot, none into the slot yet. */
  arrived?: boolean;
  @Int({ minimum: 1, description: 'Units the slot had no room for (capacity), kept in the depot.' })
  to_depot?: number;
  @Int({ minimum: 1, description: 'Units beyond the order the slot did not take: booked nowhere.' })
  not_booked?: number;
  @Int({ nullable: true })
  stock_before: number | null;
  @Int({ nullable: true })
  stock_after: number | null;
  /** When the line was received (absent on lines closed without a delivery, and on runs received before issue 25). */
  @DateTime()
  received_at?: string;
}

export class RestockOrderDeliveredView {
  item: ItemRefView;
  @Int({ minimum: 0 })
  quantity: number;
}

export class RunRestockOrderView {
  location: string;
  namespace: string;
  reference: string;
  /**
   * `not_sent`, `sending` (being sent, or its outcome is not known yet: the platform is read before anything is sent
   * again), `failed`, then the platform's `pending`, `in_progress`, `completed`, `cancelled`.
   */
  status: 'not_sent' | 'sending' | 'failed' | 'pending' | 'in_progress' | 'completed' | 'cancelled';
  external_ref: string | null;
  @DateTime({ nullable: true })
  sent_at: string | null;
  @DateTime({ nullable: true })
  completed_at: string | null;
  delivered: RestockOrderDeliveredView[] | null;
}

/** Fields of a run shared by the run and the run list. */
export class RunBaseView {
  id: string;
  /** `awaiting_approval` (an owner must approve in `/approvals`), `ready`, `placing`, `placed`, `delivered` (every line received), `closed` (an operator closed what never arrived), `rejected`, `cancelled` (before it was placed). */
  status: 'awaiting_approval' | 'ready' | 'placing' | 'placed' | 'delivered' | 'closed' | 'rejected' | 'cancelled';
  fulfiller: RunFulfillerView;
  /** True: the costs in this run are estimates (the supplier's statement settles them). */
  cost_is_estimated: boolean;
  total_cost_estimate: PriceView | null;
  approval_id: string | null;
  /** The fulfiller's order id once placed. */
  supplier_order_id: string | null;
  @DateTime()
  created_at: string;
  @DateTime({ nullable: true })
  placed_at: string | null;
  @DateTime({ nullable: true })
  delivered_at: string | null;
  note: string | null;
}

export class RunResponse extends RunBaseView {
  ucp: UcpHeaderView;
  messages: UcpMessageView[];
  lines: RunLineView[];
  delivered: RunDeliveredView[] | null;
  /** Machine-restock runs only: one binding restock order per location. */
  restock_orders?: RunRestockOrderView[];
  /** Supply-checkout runs only: one purchase order per supplier. */
  purchase_orders?: RunPurchaseOrderView[];
}

export class RunSummaryView extends RunBaseView {
  @Int({ minimum: 0 })
  line_count: number;
}

export class RunsListResponse extends UcpEnvelope {
  /** Newest first, at most 200. */
  runs: RunSummaryView[];
}

export class ScoreResponse extends UcpEnvelope {
  @Int({ minimum: 1 })
  horizon_days: number;
  @Int({ minimum: 0 })
  total_forecasts: number;
  @Int({ minimum: 0, description: 'Forecasts too young to score.' })
  pending: number;
  @FreeObject({ description: 'Accuracy reports: `headline`, `overall` and `per_location` (WAPE, bias, MASE, MAE) and `method`.' })
  reports: Record<string, unknown>;
}
