/** Response models of the replenishment runs, `/replenishment/runs*` (OpenAPI only; see common/envelope.responses.ts); run.view.ts renders them. */
import type { PackUnit } from '../../partners/adapter.types';
import { DateTime, Int } from '../../common/envelope/api-docs';
import { ItemRefView, PriceView, UcpEnvelope, UcpHeaderView, UcpMessageView } from '../../common/envelope/envelope.responses';
import type { FulfillerKind } from '../fulfiller-kind';

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
