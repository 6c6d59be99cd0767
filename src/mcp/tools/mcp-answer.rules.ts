/**
 * A REST answer → the same answer in the tool's own terms (issue 29). The one place where MCP rewrites what the REST
 * pipeline said; pure. REST keeps its paths; over MCP:
 *   - an error message's `path` names the tool argument: `$.headers.Idempotency-Key` → `$.meta["idempotency-key"]`,
 *     a body field `$.line_items[0].quantity` → `$.checkout.line_items[0].quantity` (the payload argument), a path or
 *     query parameter keeps its name (it is an argument of the same name). Warnings and info describe the answer and
 *     keep their paths.
 *   - an `approval_required` message names the tool that reads the approval it waits on, and the result lists what it
 *     waits on in `_meta` (`AWAITING_META`), so an agent need not parse sentences.
 */
import type { UcpMessage } from '../../common/envelope/envelope';
import type { ToolRoute } from './mcp-schemas.rules';

/** `_meta` key of a result that waits on something: `[{approval_id, tool, arguments}]`. */
export const AWAITING_META = 'com.example.svc/awaiting';

export interface Awaiting {
  approval_id: string;
  tool: 'get_approval';
  arguments: { id: string };
}

const HEADER_ARGUMENT: Record<string, string> = { 'idempotency-key': '$.meta["idempotency-key"]', 'ucp-agent': '$.meta["ucp-agent"]' };
const APPROVAL_ID = /approval ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/g;

/** A REST request path (JSONPath from the request root) → the JSONPath of the tool argument it names. */
export function toolPathOf(route: Pick<ToolRoute, 'pathParams' | 'queryParams' | 'payload' | 'bodyFields'>, path: string): string {
  const header = /^\$\.headers\.([A-Za-z0-9-]+)$/.exec(path);
  if (header) return HEADER_ARGUMENT[header[1].toLowerCase()] ?? '$.meta';
  const first = /^\$\.([A-Za-z0-9_]+)/.exec(path)?.[1];
  if (!first || route.pathParams.includes(first) || route.queryParams.includes(first)) return path;
  if (route.payload && route.bodyFields.includes(first)) return `$.${route.payload}${path.slice(1)}`;
  return path;
}

/** The approvals an answer's `approval_required` messages wait on, in order, once each. */
export function awaitedApprovals(messages: readonly UcpMessage[]): Awaiting[] {
  const ids = new Set<string>();
  for (const m of messages) if (m.code === 'approval_required') for (const hit of m.content.matchAll(APPROVAL_ID)) ids.add(hit[1]);
  return [...ids].map((id) => ({ approval_id: id, tool: 'get_approval', arguments: { id } }));
}

/** The answer body with its messages in the tool's terms, and what it waits on. */
export function inToolTerms(route: Pick<ToolRoute, 'pathParams' | 'queryParams' | 'payload' | 'bodyFields'>, body: unknown): { body: unknown; awaiting: Awaiting[] } {
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return { body, awaiting: [] };
  const rewritten = (messages as UcpMessage[]).map((m) => {
    const path = m.type === 'error' && typeof m.path === 'string' ? toolPathOf(route, m.path) : m.path;
    const waits = m.code === 'approval_required' ? awaitedApprovals([m]) : [];
    const content = waits.length && !m.content.includes('get_approval') ? `${m.content} (read it with get_approval, id ${waits.map((w) => w.approval_id).join(', ')})` : m.content;
    return { ...m, path, content };
  });
  return { body: { ...(body as object), messages: rewritten }, awaiting: awaitedApprovals(rewritten) };
}
