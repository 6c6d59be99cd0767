/**
 * Stdio bridge to the MCP endpoint, for desktop clients that only launch local processes:
 *   VENDING_URL=https://svc.example VENDING_TOKEN=… node dist/mcp-stdio.js
 * It speaks MCP on stdin/stdout and forwards tools/list and tools/call to `<VENDING_URL>/ucp/mcp` with the token as a
 * bearer header, so every call meets the service's own guards. The token is never printed (stderr names only the URL).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, CallToolResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PATH } from './discovery/discovery.service';
import { MCP_SERVER_NAME, MCP_SERVER_VERSION } from './mcp/mcp-server';

export function bridgeEndpoint(env: NodeJS.ProcessEnv): { url: URL; token: string } {
  const base = env.VENDING_URL?.trim();
  const token = env.VENDING_TOKEN?.trim();
  if (!base) throw new Error('VENDING_URL is not set (the service base URL, e.g. https://svc.example)');
  if (!token) throw new Error('VENDING_TOKEN is not set (the operator token)');
  let url: URL;
  try {
    url = new URL(MCP_PATH, base.endsWith('/') ? base : `${base}/`);
  } catch {
    throw new Error('VENDING_URL is not a URL');
  }
  return { url, token };
}

export async function startBridge(env: NodeJS.ProcessEnv): Promise<void> {
  const { url, token } = bridgeEndpoint(env);
  const upstream = new Client({ name: `${MCP_SERVER_NAME}-stdio-bridge`, version: MCP_SERVER_VERSION });
  await upstream.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const server = new Server({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: upstream.getInstructions() });
  server.setRequestHandler(ListToolsRequestSchema, (req) => upstream.listTools(req.params));
  // The answer is passed on as the service gave it (no output validation here: the service's schemas are the contract).
  server.setRequestHandler(CallToolRequestSchema, (req) => upstream.request({ method: 'tools/call', params: req.params }, CallToolResultSchema));
  await server.connect(new StdioServerTransport());
  process.stderr.write(`vending MCP bridge: stdio ⇄ ${url.origin}${url.pathname}\n`);
}

if (require.main === module || process.argv[1]?.endsWith('mcp-stdio.js')) {
  startBridge(process.env).catch((e: unknown) => {
    process.stderr.write(`vending MCP bridge: ${(e as Error)?.message ?? String(e)}\n`);
    process.exit(1);
  });
}
