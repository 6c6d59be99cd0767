/** Response models of GET /replenishment/plan (OpenAPI only; see common/envelope.responses.ts); plan.view.ts renders them. */
import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Int } from '../../common/envelope/api-docs';
import { ItemRefView, PriceView, UcpEnvelope } from '../../common/envelope/envelope.responses';
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
