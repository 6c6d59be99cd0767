/** Response models of owner approvals (OpenAPI only; see common/envelope.responses.ts). */
import { DateTime, FreeObject, Int } from '../../common/envelope/api-docs';
import { Fen } from '../../common/envelope/money-docs';
import { UcpEnvelope } from '../../common/envelope/envelope.responses';

export class ResolverView {
  /** `withdrawn`: the requester took its request back (`reason` says why). */
  channel: 'chat_tool' | 'dashboard' | 'withdrawn';
  /** The credential the resolving request carried (checked by the service; `chat`: a chat's own credential on the chat_tool channel); absent on approvals resolved before it was recorded. */
  credential?: 'operator' | 'approver' | 'chat' | 'agent';
  chat_id?: string;
  /** As the caller gave it: recorded, never verified (only the chat channel's admin list checks it). */
  sender_id?: string;
  /** Withdrawn: why the requester took it back. */
  reason?: string;
}

export class RequesterView {
  /** `console` (a person in the operator console), `mcp` (an agent over MCP), `api` (REST with the token), `service`. */
  channel: 'console' | 'mcp' | 'api' | 'service';
  /** `agent`: an agent's OAuth access token (issue 36), its client in `client_id`. */
  credential?: 'operator' | 'approver' | 'chat' | 'agent';
  /** The UCP-Agent profile the caller named. */
  agent?: string;
  /** The OAuth client of an agent connected by a person (issue 36). */
  client_id?: string;
}

/** One line of what an approval moves (issue 37): a run's slot, or a purchase order's line. */
export class ApprovalShownLineView {
  /** Runs: the machine's name. */
  machine?: string;
  /** The good's name (its id when no name was recorded). */
  good: string;
  item_id: string;
  /** Runs: units (each) for the slot; purchases: the quantity in `unit`. */
  @Int()
  units: number;
  /** As ordered: a number of `unit` (EA each, BX box). */
  @Int()
  quantity: number;
  unit: string;
  /** Runs: the estimated cost of the line; purchases: quantity × unit price. Null when unpriced. */
  @Fen({ nullable: true })
  amount_fen: number | null;
  /** The line in words, money as ¥1,657.40. */
  text: string;
}

/** A price change as an approval shows it: the machine, the good, the old and the new price. */
export class ApprovalShownPriceView {
  machine: string;
  good: string;
  item_id: string;
  @Fen()
  from_fen: number;
  @Fen()
  to_fen: number;
}

/**
 * Everything an approval approves, in words (issue 37), built from its stored subject: what a person reads before
 * deciding. An approval asked before its subject recorded names shows ids in their place.
 */
export class ApprovalShowsView {
  /** One sentence: what is asked, in words, money as ¥1,657.40. */
  headline: string;
  /** Runs: each slot's machine, good and units; purchases: each line. Empty for a price change. */
  lines: ApprovalShownLineView[];
  /** The amount approved (a run's estimate, a purchase's total); null for a price change. */
  @Fen({ nullable: true })
  total_fen: number | null;
  /** Who fills it: the supplier (namespace) of a purchase, the fulfiller of a run. */
  supplier?: string;
  /** Purchases: where the goods go and for whom, in words. */
  destination?: string;
  /** Price changes. */
  price?: ApprovalShownPriceView;
  /** The resource it is about: the run, the checkout session, or the machine's inventory (a path of this API). */
  link?: string;
}

/** An owner approval: a budget or probation checkout, a parked price change or an over-budget replenishment run. */
export class ApprovalView {
  id: string;
  kind: 'checkout_budget' | 'checkout_probation' | 'price_change' | 'replenishment_run';
  status: 'pending' | 'approved' | 'rejected';
  @FreeObject({ description: 'What it is about, as stored (issue 37: everything it approves): a purchase\'s session, supplier, lines with prices, total, fulfillment and `key`; a price change\'s slot, machine, good and prices; a run\'s lines (machine, good, units), total, budget, `key` and purchase orders. `shows` says it in words.' })
  subject: Record<string, unknown>;
  summary: string;
  /** Everything it approves, in words (issue 37). */
  shows: ApprovalShowsView;
  @DateTime()
  requested_at: string;
  @DateTime({ nullable: true })
  resolved_at: string | null;
  resolver: ResolverView | null;
  /** Who asked; null on approvals created before it was recorded. */
  requested_by: RequesterView | null;
  location?: string;
}

export class ApprovalsListResponse extends UcpEnvelope {
  approvals: ApprovalView[];
}

export class ApprovalResponse extends UcpEnvelope {
  approval: ApprovalView;
}
