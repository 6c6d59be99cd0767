/** Response models of price updates (OpenAPI only; see common/envelope.responses.ts). */
import { Const } from '../common/api-docs';
import { ItemRefView, PriceView, UcpEnvelope } from '../common/envelope.responses';

export class PriceChangeView {
  item: ItemRefView;
  previous: PriceView;
  price: PriceView;
}

export class ApproveBodyView {
  @Const('true', { type: Boolean, enum: [true] })
  approved: true;
}

/** What to call to approve a parked change: `POST {url}` with `{approved: true}` (an owner decides, not the agent). */
export class ApprovalActionView {
  @Const('approval')
  type: 'approval';
  approval_id: string;
  item: ItemRefView;
  @Const('POST')
  method: 'POST';
  url: string;
  body: ApproveBodyView;
}

export class SetPricesResponse extends UcpEnvelope {
  location: string;
  /** Prices changed on the machine now. */
  updated: PriceChangeView[];
  /** Items parked for approval (over the per-item cap, or a change already pending): nothing changed for them. */
  actions: ApprovalActionView[];
}
