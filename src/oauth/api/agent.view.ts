import { toPlus8 } from '../../common/time';
import type { AgentRequestView, ConnectedAgentView } from './agents.responses';
import type { ConnectedAgent } from '../agents.store';
import type { AgentRequest } from '../agent-consent.service';
import { SCOPE_WORDS } from '../oauth.rules';

export function renderAgent(a: ConnectedAgent): ConnectedAgentView {
  return {
    client_id: a.clientId,
    name: a.name,
    scope: a.scope,
    consented_by: a.account,
    redirect_host: a.redirectHost,
    connected_at: toPlus8(a.connectedAt),
    last_used_at: a.lastUsedAt ? toPlus8(a.lastUsedAt) : null,
  };
}

export function renderAgentRequest(r: AgentRequest): AgentRequestView {
  return {
    uid: r.uid,
    client_id: r.clientId,
    client_name: r.clientName,
    redirect_host: r.redirectHost,
    client_id_is_url: r.clientId.startsWith('https://'),
    asked_scopes: r.askedScopes,
    choices: r.choices.map((scope) => ({ scope, words: SCOPE_WORDS[scope] })),
    expires_at: toPlus8(r.expiresAt),
  };
}
