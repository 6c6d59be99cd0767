import { Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Request } from 'express';
import { errorBody, message } from '../../common/envelope/envelope';
import { injectRequest } from './in-process-request';
import { restCallOf, RestCall } from './mcp-call.rules';
import { Awaiting, AWAITING_META, inToolTerms } from './mcp-answer.rules';
import { OpenApiDocumentLike, toolDefinitions, ToolDefinition } from './mcp-schemas.rules';

/** The Express application every tool call is dispatched into, and the document its tools are derived from. */
export interface McpTarget {
  handler: (req: never, res: never) => void;
  document: () => Promise<OpenApiDocumentLike>;
}

/**
 * Outer request headers a tool call carries into its REST request: the caller's credentials and origin (so the same
 * guards judge them), and what decides the absolute URLs and the client address (so links and logs are the same).
 */
const CARRIED_HEADERS = ['authorization', 'cookie', 'origin', 'referer', 'user-agent', 'host', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'accept-language'];

/**
 * Runs MCP tool calls as the REST operations they name, in process, through the same Express/Nest pipeline
 * (middleware, auth guard, pipes, controllers, idempotency, exception filter): no second implementation.
 */
@Injectable()
export class McpToolsService {
  private target: McpTarget | null = null;
  private definitions: Promise<ToolDefinition[]> | null = null;
  private byName: Map<string, ToolDefinition> | null = null;

  /** Called once at boot (src/mcp/mcp.setup.ts): the app's request handler and its OpenAPI document. */
  attach(target: McpTarget): void {
    this.target = target;
  }

  /** The tool definitions, derived once from the OpenAPI document. */
  tools(): Promise<ToolDefinition[]> {
    if (!this.target) return Promise.reject(new Error('the MCP transport is not attached to the application'));
    this.definitions ??= this.target.document().then((doc) => {
      const defs = toolDefinitions(doc);
      this.byName = new Map(defs.map((d) => [d.tool.name, d]));
      return defs;
    });
    this.definitions.catch(() => (this.definitions = null)); // a failed build is tried again on the next call
    return this.definitions;
  }

  async find(name: string): Promise<ToolDefinition | undefined> {
    await this.tools();
    return this.byName?.get(name);
  }

  /** One tool call: its REST request, run in process, answered as the ucp JSON in structuredContent and text. */
  async call(def: ToolDefinition, args: Record<string, unknown> | undefined, outer: Request): Promise<CallToolResult> {
    const mapped = restCallOf(def, args);
    if (!mapped.ok) return resultOf(400, mapped.body);
    const { status, body, replayed } = await this.dispatch(mapped.call, outer, def.tool.name);
    const answer = inToolTerms(def.route, body);
    return resultOf(status, answer.body, replayed, answer.awaiting);
  }

  private async dispatch(call: RestCall, outer: Request, tool: string): Promise<{ status: number; body: unknown; replayed: boolean }> {
    if (!this.target) throw new Error('the MCP transport is not attached to the application');
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const h of CARRIED_HEADERS) {
      const v = outer.headers[h];
      if (typeof v === 'string') headers[h] = v;
      else if (Array.isArray(v)) headers[h] = v.join(h === 'cookie' ? '; ' : ', ');
    }
    Object.assign(headers, call.headers);
    headers['x-mcp-tool'] = tool; // believed in process only: a refusal names the tool (issue 36)
    if (call.payload !== undefined) headers['content-type'] = 'application/json';
    const res = await injectRequest(this.target.handler as never, {
      method: call.method,
      url: call.url,
      headers,
      payload: call.payload,
      remoteAddress: outer.socket?.remoteAddress ?? '127.0.0.1',
    });
    try {
      return { status: res.status, body: JSON.parse(res.body) as unknown, replayed: res.headers['idempotent-replayed'] === 'true' };
    } catch {
      return { status: 500, body: errorBody([message('internal_error', 'unrecoverable', `the operation answered ${res.status} without a JSON body`)]), replayed: false };
    }
  }
}

/** `_meta` keys of a result: the REST status of the answer, and whether it is an idempotent replay. */
export const STATUS_META = 'com.example.svc/http_status';
export const REPLAYED_META = 'com.example.svc/idempotent_replayed';

/** A 4xx/5xx REST answer is a tool result with `isError` (a business outcome the agent reads), never a JSON-RPC error. */
export function resultOf(status: number, body: unknown, replayed = false, awaiting: Awaiting[] = []): CallToolResult {
  return {
    structuredContent: body as Record<string, unknown>,
    content: [{ type: 'text', text: JSON.stringify(body) }],
    ...(status >= 400 ? { isError: true } : {}),
    _meta: { [STATUS_META]: status, ...(replayed ? { [REPLAYED_META]: true } : {}), ...(awaiting.length ? { [AWAITING_META]: awaiting } : {}) },
  };
}
