/**
 * Stdio bridge to the MCP endpoint, for desktop clients that only launch local processes:
 *   VENDING_URL=https://svc.example VENDING_TOKEN=… node dist/mcp-stdio.js
 * MCP on stdin/stdout, forwarded to `<VENDING_URL>/ucp/mcp` (src/mcp/stdio-bridge.ts). stdout carries only MCP
 * messages; stderr names the endpoint, never the token.
 */
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { bridgeEndpoint, startBridge } from './mcp/stdio-bridge';

startBridge(process.env, new StdioServerTransport()).then(
  () => {
    const { url } = bridgeEndpoint(process.env);
    process.stderr.write(`vending MCP bridge: stdio <-> ${url.origin}${url.pathname}\n`);
  },
  (e: unknown) => {
    process.stderr.write(`vending MCP bridge: ${(e as Error)?.message ?? String(e)}\n`);
    process.exit(1);
  },
);
