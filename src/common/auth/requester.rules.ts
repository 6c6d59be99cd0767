/**
 * Who made a request (issue 30): an approval records who asked for it, an event the agent's client. Pure.
 * `console`: a person signed in to the operator console (the sign-in cookie); `mcp`: an agent through the MCP
 * endpoint; `api`: a caller with the bearer token on REST (a script, an agent, a chat bridge); `service`: the service
 * itself (a scheduled job, recovery). `agent` is the UCP-Agent profile the caller named, when it named one.
 */
import type { Credential } from './credential';
import { MCP_PATH } from '../mcp-paths';

export type RequesterChannel = 'console' | 'mcp' | 'api' | 'service';

export interface Requester {
  channel: RequesterChannel;
  credential?: Credential;
  agent?: string;
  /** An agent's OAuth client (issue 36): the credential `agent` is its access token. */
  client_id?: string;
}


export function requesterOf(r: { path: string; via: 'bearer' | 'cookie' | null; credential: Credential | null; agentProfile: string | null; clientId?: string | null }): Requester {
  const channel: RequesterChannel = r.path === MCP_PATH || r.path.startsWith(`${MCP_PATH}/`) ? 'mcp' : r.via === 'cookie' ? 'console' : r.via === 'bearer' ? 'api' : 'service';
  return {
    channel,
    ...(r.credential ? { credential: r.credential } : {}),
    ...(r.agentProfile ? { agent: r.agentProfile.slice(0, 200) } : {}),
    ...(r.clientId ? { client_id: r.clientId } : {}),
  };
}

/** A stored requester read back: anything unknown (rows before issue 30) is null, never guessed. */
export function readRequester(v: unknown): Requester | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (!['console', 'mcp', 'api', 'service'].includes(String(o.channel))) return null;
  return {
    channel: o.channel as RequesterChannel,
    ...(o.credential === 'operator' || o.credential === 'approver' || o.credential === 'chat' || o.credential === 'agent' ? { credential: o.credential } : {}),
    ...(typeof o.agent === 'string' ? { agent: o.agent } : {}),
    ...(typeof o.client_id === 'string' ? { client_id: o.client_id } : {}),
  };
}
