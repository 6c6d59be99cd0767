/** Response models of sale and purchase orders (OpenAPI only; see common/envelope.responses.ts). */
import { Const, DateTime, FreeObject, Int } from '../../common/envelope/api-docs';
import { PaginationView, PriceView, TotalView, UcpEnvelope, UcpHeaderView, UcpMessageView } from '../../common/envelope/envelope.responses';
import type { PackUnit } from '../../partners/adapter.types';

export class OrderItemView {
  id: string;
  title: string | null;
  /** Price of the line's unit. */
  price: PriceView;
  quantity_unit?: PackUnit;
}

export class OrderQuantityView {
  @Int({ minimum: 0 })
  original: number;
  @Int({ minimum: 0 })
  total: number;
  @Int({ minimum: 0 })
  fulfilled: number;
}

export class OrderLineView {
  id: string;
  item: OrderItemView;
  quantity: OrderQuantityView;
  totals: TotalView[];
  /** Sale lines: paid → fulfilled, unpaid → processing, refunded/cancelled → removed, refund_failed → fulfilled. */
  status: 'fulfilled' | 'processing' | 'removed';
}

export class LineRefView {
  id: string;
  @Int({ minimum: 0 })
  quantity: number;
}

export class FulfillmentExpectationView {
  id: string;
  line_items: LineRefView[];
  method_type: string;
  @FreeObject({ nullable: true })
  destination: Record<string, unknown> | null;
  description?: string;
}

export class FulfillmentEventView {
  id: string;
  @DateTime({ nullable: true })
  occurred_at: string | null;
  type: string;
  line_items: LineRefView[];
  tracking_number?: string;
  carrier?: string;
  description?: string;
}

export class OrderFulfillmentView {
  expectations: FulfillmentExpectationView[];
  events: FulfillmentEventView[];
}

export class AdjustmentView {
  id: string;
  type: 'refund' | 'refund_failed' | 'cancellation';
  @DateTime({ nullable: true })
  occurred_at: string | null;
  status: 'pending' | 'completed' | 'failed';
  line_items?: LineRefView[];
  /** Money back to the buyer is negative. */
  totals?: TotalView[];
  description?: string;
}

export class SupplierStatusView {
  /** The supplier's own status word. */
  code: string;
  description: string;
  /** The contract state, or null when the supplier sent another word. */
  mapped: 'ordered' | 'arrived' | 'cancelled' | null;
}

export class LogisticsView {
  carrier: string | null;
  tracking_number: string | null;
  status: string | null;
  @DateTime({ nullable: true })
  updated_at: string | null;
}

/**
 * A sale (machine ledger) or purchase (supplier order) order. Sale orders carry `location`, the trade status fields and
 * the times the platform gives; purchase orders carry `namespace`, `supplier_status` and `logistics`.
 */
export class OrderView {
  /** Sale: the ledger number. Purchase: the purchase-order id (the checkout session id). */
  id: string;
  label?: string;
  kind: 'sale' | 'purchase';
  checkout_id: string | null;
  permalink_url: string;
  @Const('CNY')
  currency: 'CNY';
  line_items: OrderLineView[];
  fulfillment: OrderFulfillmentView;
  adjustments: AdjustmentView[];
  totals: TotalView[];
  /** Purchase: the supplier namespace. */
  namespace?: string;
  /** Sale: the machine id. */
  location?: string;
  location_name?: string | null;
  /** Sale: the normalised state; absent when neither the adapter nor the lines give one. Only `settled` is a sale. */
  trade_status?: 'in_progress' | 'pending_review' | 'settled' | 'payment_failed' | 'refunded' | 'cancelled';
  /** Sale: the platform's own word for the state. */
  trade_status_raw?: string | null;
  trade_status_label?: string;
  /** Sale: false while lines and amounts can still change; deduplicate on (`id`, `updated_at`). */
  finalized?: boolean;
  @DateTime({ required: false })
  taken_at?: string;
  @DateTime({ required: false })
  settled_at?: string;
  @DateTime({ required: false })
  updated_at?: string;
  supplier_status?: SupplierStatusView;
  logistics?: LogisticsView[];
  @DateTime({ required: false })
  placed_at?: string;
  @DateTime({ required: false, nullable: true })
  supplier_checked_at?: string | null;
}

export class OrdersListResponse extends UcpEnvelope {
  orders: OrderView[];
  pagination: PaginationView;
}

export class OrderResponse extends OrderView {
  ucp: UcpHeaderView;
  messages: UcpMessageView[];
}
