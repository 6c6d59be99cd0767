import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { publicJsonRpcMessage } from './mcp-error.rules';
import { McpToolsService } from './mcp-tools.service';

export const MCP_SERVER_NAME = 'vending-commerce';
export const MCP_SERVER_VERSION = '2026-09-10';

const INSTRUCTIONS =
  'Runs a vending route: supplier catalogs, machine shelves, purchase orders (UCP checkout), prices, replenishment, approvals and events. ' +
  'Every answer is the ucp JSON: read `messages[]` before the data; a message `path` names your tool argument (`$.checkout.line_items[0].quantity`). ' +
  'Severities: `recoverable` = fix the named argument and call again; `requires_buyer_review` = stop and show a person; `unrecoverable` = do not retry this call as it is. ' +
  'Money moves only in complete_checkout, update_prices, place_run and send_restock: each needs meta["idempotency-key"] (a fresh UUID per intended action; reuse it to retry the same call, which then answers the first result) and, where asked, `confirm: true`, which is a person\'s decision. ' +
  'An `approval_required` message carries the approval id (`approval_id`) and the tool to read it (get_approval); an owner resolves it, an agent relays and never approves its own request; withdraw_approval withdraws a mistaken request of yours. ' +
  'Amounts are integer fen (CNY): 350 = ¥3.50. `meta["ucp-agent"].profile` is sent as the UCP-Agent header.';

/** One validator for every server: the SDK builds a new Ajv per server otherwise (7% of a tool call's CPU). */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/**
 * One MCP server for one HTTP request (stateless Streamable HTTP): it lists the tools derived from the OpenAPI
 * document and runs each call as its REST operation with the caller's own credentials (the outer request's).
 */
export function createMcpServer(tools: McpToolsService, outer: Request): Server {
  const server = new Server({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator: SHARED_VALIDATOR });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await tools.tools()).map((d) => d.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const def = await tools.find(request.params.name);
    if (!def) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${request.params.name} (tools/list names them)`);
    return tools.call(def, request.params.arguments, outer);
  });
  return server;
}

/** Answers one HTTP request of the MCP endpoint: a fresh server and stateless transport, JSON answers, no session. */
export async function serveMcpRequest(tools: McpToolsService, req: Request, res: Response): Promise<void> {
  const server = createMcpServer(tools, req);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // Every JSON-RPC error leaves through here: none carries an internal message (issue 26, mcp-error.rules.ts).
  const send = transport.send.bind(transport);
  transport.send = (msg, options) => send(publicJsonRpcMessage(msg), options);
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}
