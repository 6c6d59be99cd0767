import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2026, StreamableHTTPClientTransport as Transport2026 } from '@modelcontextprotocol/client';
import { Client as Client2025 } from 'mcp-sdk-2025/client/index.js';
import { StreamableHTTPClientTransport as Transport2025 } from 'mcp-sdk-2025/client/streamableHttp.js';
import type { TestApp } from './test-app';

/**
 * The SDK client generations the MCP tests run (issue 29):
 * - `2026`: the official SDK's current line (`@modelcontextprotocol/client` 2.4.0), pinned to protocol 2026-07-28
 *   (`server/discover`, no `initialize`, the `_meta` envelope on every request);
 * - `current`: the last SDK of the 1.x line (`@modelcontextprotocol/sdk` 1.32.2, protocol 2025-11-25);
 * - `2025`: the SDK of May 2025 (1.12.1, protocol 2025-03-26), installed under the alias `mcp-sdk-2025`.
 */
export const CLIENT_GENERATIONS = ['2026', 'current', '2025'] as const;
export type ClientGeneration = (typeof CLIENT_GENERATIONS)[number];

/** The official SDK client over real HTTP to `<app>/ucp/mcp`, with the operator token unless `headers` say otherwise. */
export async function mcpClient(t: TestApp, headers: Record<string, string> = { Authorization: `Bearer ${t.token}` }, generation: ClientGeneration = 'current'): Promise<Client> {
  const url = new URL(`${t.url}/ucp/mcp`);
  // The calls the tests make (listTools, callTool, close) have the same shape in every generation.
  if (generation === '2026') {
    const modern = new Client2026({ name: 'vending-e2e-tests-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new Transport2026(url, { requestInit: { headers } }));
    if (modern.getProtocolEra() !== 'modern') throw new Error(`the 2026 client connected in the ${modern.getProtocolEra()} era`);
    return modern as unknown as Client;
  }
  if (generation === '2025') {
    const old = new Client2025({ name: 'vending-e2e-tests-2025', version: '1.0.0' });
    await old.connect(new Transport2025(url, { requestInit: { headers } }));
    return old as unknown as Client;
  }
  const client = new Client({ name: 'vending-e2e-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

/** A tool call's answer as the tests read it: the ucp JSON, its REST status, isError. */
export interface ToolAnswer {
  body: Record<string, unknown> & { messages: { code: string; severity: string; path?: string; type: string; content: string }[]; status?: string };
  status: number;
  isError: boolean;
  replayed: boolean;
  text: string;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r.content[0] as { text: string }).text;
  expect(JSON.parse(text)).toEqual(r.structuredContent); // the same ucp JSON, serialised for clients without structuredContent
  return {
    body: r.structuredContent as ToolAnswer['body'],
    status: r._meta?.['com.example.svc/http_status'] as number,
    isError: r.isError === true,
    replayed: r._meta?.['com.example.svc/idempotent_replayed'] === true,
    text,
  };
}

export function codesOf(a: ToolAnswer): string[] {
  return a.body.messages.map((m) => m.code);
}
