import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createMcpHandler, isLegacyRequest, ProtocolError, ProtocolErrorCode, Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { ListToolsResult, McpHttpHandler, McpRequestContext } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { callerOf } from '../common/auth/credential';
import { MCP_PATH } from '../common/mcp-paths';
import { publicJsonRpcMessage } from './tools/mcp-error.rules';
import { McpToolsService } from './tools/mcp-tools.service';

export const MCP_SERVER_NAME = 'vending-commerce';
export const MCP_SERVER_VERSION = '2026-09-10';

const INSTRUCTIONS =
  'Runs a vending route: supplier catalogs, machine shelves, purchase orders (UCP checkout), prices, replenishment, approvals and events. ' +
  'Every answer is the ucp JSON: read `messages[]` before the data; a message `path` names your tool argument (`$.checkout.line_items[0].quantity`). ' +
  'Severities: `recoverable` = fix the named argument and call again; `requires_buyer_review` = stop and show a person; `unrecoverable` = do not retry this call as it is. ' +
  'Money moves only in complete_checkout, update_prices, place_run and send_restock: each needs meta["idempotency-key"] (a fresh UUID per intended action; reuse it to retry the same call, which then answers the first result) and, where asked, `confirm: true`, which is a person\'s decision. ' +
  'An `approval_required` message carries the approval id (`approval_id`) and the tool to read it (get_approval); an owner resolves it, an agent relays and never approves its own request; withdraw_approval withdraws a mistaken request of yours. ' +
  'Amounts are integer fen (CNY): 350 = ¥3.50. `meta["ucp-agent"].profile` is sent as the UCP-Agent header.';

/** One validator for every server: the SDK builds a new Ajv per server otherwise. */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/**
 * One MCP server for one HTTP request (either protocol era): it lists the tools derived from the OpenAPI document and
 * runs each call as its REST operation with the caller's own credentials (the outer request's).
 */
export function createMcpServer(tools: McpToolsService, outer: Request): Server {
  const server = new Server({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator: SHARED_VALIDATOR });
  // The tools' JSON Schemas are typed by the rules module (mcp-schemas.rules.ts), the SDK types them as JSON values.
  // A chat bot's credential sees only the tools it may call (approvals, and what needs no token): issue 37.
  const chat = callerOf(outer).credential === 'chat';
  server.setRequestHandler('tools/list', async () => ({ tools: (await tools.tools()).filter((d) => !chat || d.access !== 'token').map((d) => d.tool) }) as unknown as ListToolsResult);
  server.setRequestHandler('tools/call', async (request) => {
    const def = await tools.find(request.params.name);
    if (!def) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool: ${request.params.name} (tools/list names them)`);
    return tools.call(def, request.params.arguments, outer);
  });
  return server;
}

/**
 * The MCP endpoint over HTTP, stateless in both protocol eras (issue 29):
 * - 2026-07-28 (`server/discover`, a `_meta` envelope on every request) is served by the SDK's own entry
 *   (`createMcpHandler`, strict: `legacy: 'reject'`), a fresh server per request;
 * - 2025-era traffic (`initialize`, no envelope; the SDK's `isLegacyRequest` decides, the same test the entry runs) by
 *   a fresh server over the stateless Streamable HTTP transport with JSON answers, as before the SDK's v2 line (its
 *   built-in legacy fallback answers in SSE, which plain JSON-RPC callers of this endpoint do not read).
 * Every JSON-RPC error leaves through `publicJsonRpcMessage`: none carries an internal message (issue 26).
 */
export class McpEndpoint {
  /** The Express request behind each web request the modern entry serves (its factory is handed the web request). */
  private readonly outers = new WeakMap<globalThis.Request, Request>();
  private readonly modern: McpHttpHandler;
  private readonly logger = new Logger('McpEndpoint');

  constructor(private readonly tools: McpToolsService) {
    // onerror only reports what was already answered (a refused request, a failure): at debug level, shortened.
    this.modern = createMcpHandler((ctx: McpRequestContext) => this.serverFor(ctx.requestInfo), { legacy: 'reject', onerror: (e) => this.logger.debug(`2026-07-28: ${e.message.slice(0, 200)}`) });
  }

  async serve(req: Request, res: Response): Promise<void> {
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    const request = webRequestOf(req, aborted.signal);
    const answer = (await isLegacyRequest(request, req.body)) ? await this.serveLegacy(req, request) : await this.serveModern(req, request);
    await writeAnswer(answer, res);
  }

  private serverFor(request: globalThis.Request | undefined): Server {
    const outer = request && this.outers.get(request);
    if (!outer) throw new Error('an MCP request reached the server factory without its HTTP request');
    return createMcpServer(this.tools, outer);
  }

  private serveModern(req: Request, request: globalThis.Request): Promise<globalThis.Response> {
    this.outers.set(request, req);
    return this.modern.fetch(request, { parsedBody: req.body });
  }

  private async serveLegacy(req: Request, request: globalThis.Request): Promise<globalThis.Response> {
    const server = createMcpServer(this.tools, req);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody: req.body });
    } finally {
      void transport.close();
      void server.close();
    }
  }
}

const WEB_URL = `http://localhost${MCP_PATH}`;

/** The web-standard request the SDK's HTTP entries take, from Express's (its body already parsed: passed separately). */
function webRequestOf(req: Request, signal: AbortSignal): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  // The SDK reads the method, headers and body, not the URL: a fixed one, so no Host or query value can make it invalid.
  return new globalThis.Request(WEB_URL, { method: req.method, headers, signal });
}

/** Writes the SDK's answer to Express: a JSON body with its errors made public, or a stream as it comes. */
async function writeAnswer(answer: globalThis.Response, res: Response): Promise<void> {
  res.status(answer.status);
  answer.headers.forEach((value, name) => {
    if (name !== 'content-length') res.setHeader(name, value);
  });
  const type = answer.headers.get('content-type') ?? '';
  if (!answer.body) {
    res.end();
    return;
  }
  if (!type.startsWith('application/json')) {
    Readable.fromWeb(answer.body as NodeReadableStream).pipe(res);
    return;
  }
  const text = await answer.text();
  let body: string;
  try {
    body = JSON.stringify(publicJsonRpcMessage(JSON.parse(text) as unknown));
  } catch {
    body = text;
  }
  res.end(body);
}
