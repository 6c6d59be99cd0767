/** Response models of price updates (OpenAPI only; see common/envelope.responses.ts). */
import { ApiProperty } from '@nestjs/swagger';
import { Const } from '../../common/envelope/api-docs';
import { ItemRefView, PriceView, UcpEnvelope } from '../../common/envelope/envelope.responses';

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

/** An item's reference price of the day (+08:00): the per-item cap holds against it as well as the previous price. */
export class PriceReferenceView {
  item: ItemRefView;
  price: PriceView;
  /** `day_start`: the item's price before the service's first change today; `approved`: a price an owner approved today. */
  source: 'day_start' | 'approved';
  /** Since when it holds (+08:00): the start of the day, or when the approved price was made. */
  since: string;
}

/** A line parked for an owner's approval (over the per-item cap, or a change already pending): nothing changed for it. */
export class PendingPriceView {
  item: ItemRefView;
  /** The approval it waits on: read it with `GET /approvals/{id}` (MCP: get_approval); an owner resolves it. */
  approval_id: string;
  previous: PriceView;
  /** The price asked for. */
  price: PriceView;
}

export class SetPricesResponse extends UcpEnvelope {
  /** `updated`: every line changed; `pending_approval`: no line changed, each waits for an owner (`pending`); `partly_pending_approval`: some of each. */
  @ApiProperty({ enum: ['updated', 'pending_approval', 'partly_pending_approval'] })
  status: 'updated' | 'pending_approval' | 'partly_pending_approval';
  location: string;
  /** Prices changed on the machine now. */
  updated: PriceChangeView[];
  /** Lines waiting for an owner's approval, each with its `approval_id`. */
  pending: PendingPriceView[];
  /** REST links to the approvals of `pending` (an owner's call, not the requester's). */
  actions: ApprovalActionView[];
  /** Every requested item's reference price of the day (issue 26). */
  references: PriceReferenceView[];
}
