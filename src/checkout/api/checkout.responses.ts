/** Response models of checkout sessions (OpenAPI only; see common/envelope.responses.ts). */
import { Const, DateTime, Int } from '../../common/envelope/api-docs';
import { PriceView, TotalView, UcpEnvelope } from '../../common/envelope/envelope.responses';
import type { PackUnit } from '../../partners/adapter.types';

export class SessionItemView {
  /** A supply sku_id. */
  id: string;
  /** Absent while the supplier does not carry the item (the line's `item_unavailable` message says so). */
  title?: string;
  /** Price of the line's unit, read from the supplier catalog; absent while the item is unknown or not sold in that unit. */
  price?: PriceView;
  quantity_unit: PackUnit;
}

export class SessionQuantityUnitView {
  unit: PackUnit;
  @Int({ required: false, minimum: 1, description: 'EA per box (BX).' })
  contains?: number;
}

export class SessionLineView {
  /** `li_1`, `li_2`, … */
  id: string;
  item: SessionItemView;
  @Int({ minimum: 1, description: 'Counts the line\'s unit (boxes for BX).' })
  quantity: number;
  quantity_unit: SessionQuantityUnitView;
  totals: TotalView[];
}

export class DestinationView {
  street_address?: string;
  first_name?: string;
  phone_number?: string;
}

export class FulfillmentMethodView {
  type: 'shipping' | 'pickup';
  destinations?: DestinationView[];
}

export class SessionFulfillmentView {
  methods: FulfillmentMethodView[];
}

export class LinkView {
  type: string;
  url: string;
  title?: string;
}

export class SessionOrderRefView {
  /** The purchase-order id (the session id, also the supplier's order ref). */
  id: string;
  label: string;
  /** `GET /orders/{id}`: supplier status and logistics. */
  permalink_url: string;
}

/**
 * A wholesale purchase-order session: one supply namespace (one vendor). Read `messages[]` first: each `recoverable`
 * message names what is missing with its `path`; `requires_buyer_review` (`approval_required`) means an owner must
 * approve in `GET /approvals` before completing.
 */
export class CheckoutSessionResponse extends UcpEnvelope {
  /** Doubles as the purchase-order number and the supplier's order reference. */
  id: string;
  status: 'incomplete' | 'requires_escalation' | 'ready_for_complete' | 'complete_in_progress' | 'completed' | 'canceled';
  @Const('CNY')
  currency: 'CNY';
  /** The supply namespace of every line. */
  namespace: string;
  line_items: SessionLineView[];
  fulfillment: SessionFulfillmentView;
  /** Integer fen: one `subtotal` and one `total`. */
  totals: TotalView[];
  links: LinkView[];
  /** The session holds its prices until then (6 hours after they were read); past it, a PUT prices it again before it can complete. */
  @DateTime()
  expires_at: string;
  @DateTime()
  created_at: string;
  @DateTime()
  updated_at: string;
  /** With `requires_escalation`: where the owner approves. */
  continue_url?: string;
  /** Present once completed. */
  order?: SessionOrderRefView;
}

/** Request model of `payment` on complete (the DTO checks only `confirm`; the supplier account pays). */
export class PaymentInstrumentBody {
  id: string;
  @Const('supplier_account')
  handler_id: 'supplier_account';
  @Const('on_account')
  type: 'on_account';
}

export class PaymentBody {
  instruments: PaymentInstrumentBody[];
}
