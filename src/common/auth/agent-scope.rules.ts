/**
 * What an agent's OAuth grant lets a request do (issue 36). Pure. `read`: the reads only (every GET, the POST searches
 * and lookups, and the MCP endpoint itself, whose tool calls are each judged again as their own REST request);
 * `operate`: what the operator token does. Neither ever does what only the approver may (that is the guard's check).
 */
import { MCP_PATH } from '../mcp-paths';

/** The operations that read with a POST body (their MCP tools are `readOnlyHint`; test/unit/auth checks the list). */
export const READ_POSTS: ReadonlySet<string> = new Set(['/ucp/v1/catalog/search', '/ucp/v1/catalog/lookup', '/ucp/v1/locations/search', MCP_PATH]);

export function isReadRequest(method: string, path: string): boolean {
  const m = method.toUpperCase();
  return m === 'GET' || m === 'HEAD' || m === 'OPTIONS' || (m === 'POST' && READ_POSTS.has(path));
}

/**
 * Why this request is refused for the grant, or null. `what` names the operation in the caller's terms: the MCP tool
 * for a tool call, else the method and path.
 */
export function agentScopeRefusal(scope: 'read' | 'operate', method: string, path: string, what: string): string | null {
  if (scope === 'operate' || isReadRequest(method, path)) return null;
  return `${what} changes something, and this agent's grant is read only: a person can connect the agent again with the operate scope from the console (Agents)`;
}

export const AGENT_NO_OWNER_POWERS =
  'an agent connected through OAuth never has the owner\'s powers (approvals, releasing the kill switch, guard rules): a person does this with the approver credential';
