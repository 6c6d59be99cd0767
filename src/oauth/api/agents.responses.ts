/** Response models of the agent connections (issue 36; OpenAPI only). */
import { DateTime } from '../../common/envelope/api-docs';
import { UcpEnvelope } from '../../common/envelope/envelope.responses';

export class ConnectedAgentView {
  /** The OAuth client id (registered dynamically, or the https URL of its client ID metadata document). */
  client_id: string;
  /** The name the client gave itself (`client_name`), as registered: not verified. */
  name: string;
  /** `read` (reads only) or `operate` (what the operator token does, never the owner's powers). */
  scope: 'read' | 'operate';
  /** Who consented: `operator` or `approver` (the owner). */
  consented_by: string;
  /** The host the authorization was sent back to. */
  redirect_host: string | null;
  @DateTime()
  connected_at: string;
  /** Last request with one of its tokens (to the minute); null before the first. */
  @DateTime({ nullable: true })
  last_used_at: string | null;
}

export class ConnectedAgentsResponse extends UcpEnvelope {
  /** Newest connection first. */
  agents: ConnectedAgentView[];
}

export class AgentDisconnectedResponse extends UcpEnvelope {
  agent: ConnectedAgentView;
}

export class ScopeChoiceView {
  scope: 'read' | 'operate';
  /** What the scope lets the agent do, in words. */
  words: string;
}

export class AgentRequestView {
  /** The pending authorization's id (from the consent page's address). */
  uid: string;
  client_id: string;
  /** The name the client gave itself: not verified (say so to the person). */
  client_name: string | null;
  /** Where the answer is sent back: the host of the registered redirect URI the client named. */
  redirect_host: string | null;
  /** True when the client identified itself by a client ID metadata document (an https URL it controls). */
  client_id_is_url: boolean;
  /** What the client asked for. */
  asked_scopes: string[];
  /** The scopes the person may grant (never more than asked). */
  choices: ScopeChoiceView[];
  @DateTime()
  expires_at: string;
}

export class AgentRequestResponse extends UcpEnvelope {
  request: AgentRequestView;
}

export class AgentDecisionResponse extends UcpEnvelope {
  /** Where the browser goes next: the authorization server's resume step (then the client's redirect URI). */
  redirect_to: string;
  approved: boolean;
}
