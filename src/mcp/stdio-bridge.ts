import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { MCP_PATH } from '../common/mcp-paths';
import { MCP_SERVER_NAME, MCP_SERVER_VERSION } from './mcp-server';

/** The MCP endpoint and token the bridge forwards to, from VENDING_URL and VENDING_TOKEN (a missing one is named). */
export function bridgeEndpoint(env: NodeJS.ProcessEnv): { url: URL; token: string } {
  const base = env.VENDING_URL?.trim();
  const token = env.VENDING_TOKEN?.trim();
  if (!base) throw new Error('VENDING_URL is not set (the service base URL, e.g. https://svc.example)');
  if (!token) throw new Error('VENDING_TOKEN is not set (the operator token)');
  let url: URL;
  try {
    url = new URL(MCP_PATH.slice(1), base.endsWith('/') ? base : `${base}/`);
  } catch {
    throw new Error('VENDING_URL is not a URL');
  }
  return { url, token };
}

/**
 * Serves MCP on `local` (stdio in `node dist/mcp-stdio.js`) in either protocol era (the desktop client's opening
 * decides) and forwards tools/list and tools/call to the service's endpoint, over the 2026-07-28 revision where the
 * service offers it (`server/discover`), with the token as a bearer header: every call meets the service's own
 * guards; nothing is decided here.
 */
export async function startBridge(env: NodeJS.ProcessEnv, local: Transport): Promise<{ close: () => Promise<void> }> {
  const { url, token } = bridgeEndpoint(env);
  const upstream = new Client({ name: `${MCP_SERVER_NAME}-stdio-bridge`, version: MCP_SERVER_VERSION }, { versionNegotiation: { mode: 'auto' } });
  await upstream.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const factory = () => {
    const server = new Server({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: upstream.getInstructions() });
    server.setRequestHandler('tools/list', (req) => upstream.listTools(req.params, { cacheMode: 'bypass' }));
    // Passed on as the service answered (the client at the other end validates against the tools' output schemas).
    server.setRequestHandler('tools/call', (req) => upstream.callTool(req.params));
    return server;
  };
  const served = serveStdio(factory, { transport: local });
  return {
    close: async () => {
      await served.close();
      await upstream.close();
    },
  };
}
