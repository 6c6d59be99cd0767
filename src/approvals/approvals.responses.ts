/** Response models of owner approvals (OpenAPI only; see common/envelope.responses.ts). */
import { DateTime, FreeObject } from '../common/api-docs';
import { UcpEnvelope } from '../common/envelope.responses';

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

/** An owner approval: a budget or probation checkout, a parked price change or an over-budget replenishment run. */
export class ApprovalView {
  id: string;
  kind: 'checkout_budget' | 'checkout_probation' | 'price_change' | 'replenishment_run';
  status: 'pending' | 'approved' | 'rejected';
  @FreeObject({ description: 'What it is about, with ids (session, lines and total; item, slot and prices; run).' })
  subject: Record<string, unknown>;
  summary: string;
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
