import request from 'supertest';
import { Client as Client2026, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { MCP_TOOLS } from '../../src/mcp/tools/mcp-tools.table';
import { startBridge } from '../../src/mcp/stdio-bridge';
import { BOTH_DATABASES, startTestApp, TestApp, TEST_TOKEN } from '../support/test-app';

/**
 * Issue 29 item 6: the MCP revision of 2026-07-28 on the one endpoint, next to the 2025-era revisions: stateless,
 * no `initialize`, `server/discover` advertises the server, every request carries the `_meta` envelope and the
 * standard headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`). Raw JSON-RPC here (what the endpoint writes); the SDK clients run the agent's day.
 */
const MODERN = '2026-07-28';
const TOOLS_LIST_BUDGET = 64 * 1024; // test/unit/mcp/mcp-budget.spec.ts
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-probe', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe.each(BOTH_DATABASES)('MCP 2026-07-28 next to the 2025-era revisions (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
  });
  afterAll(() => t?.close());

  const modern = (method: string, params: Record<string, unknown> = {}, token: string | null = TEST_TOKEN, version = MODERN) => {
    // The 2026-07-28 standard headers (SEP-2243) repeat the revision, the method and the tool's name of the body.
    const r = request(t.url).post('/ucp/mcp').set('Accept', 'application/json, text/event-stream').set('Content-Type', 'application/json').set('MCP-Protocol-Version', version).set('Mcp-Method', method);
    if (typeof params.name === 'string') r.set('Mcp-Name', params.name);
    if (token) r.set('Authorization', `Bearer ${token}`);
    return r.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': version } } }));
  };
  const legacy = (method: string, params: Record<string, unknown> = {}) =>
    t.post('/ucp/mcp', { jsonrpc: '2.0', id: 1, method, params }).set('Accept', 'application/json, text/event-stream');

  it('server/discover advertises 2026-07-28, the tools capability, the server and its instructions, in one JSON answer', async () => {
    const res = await modern('server/discover').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.result.supportedVersions).toEqual([MODERN]);
    expect(res.body.result.capabilities).toMatchObject({ tools: {} });
    expect(res.body.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'vending-commerce' });
    expect(res.body.result.instructions).toMatch(/integer fen/);
  });

  it('no token: 401 before the MCP layer, as for the 2025-era revisions and REST', async () => {
    const res = await modern('server/discover', {}, null);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, data: { messages: [{ code: 'unauthorized' }] } } });
  });

  it('tools/list is the same list in both eras and fits the 64 KB budget in each, measured as the bytes written', async () => {
    const now = await modern('tools/list').expect(200);
    const then = await legacy('tools/list').expect(200);
    expect(now.body.result.tools.map((x: { name: string }) => x.name)).toEqual(MCP_TOOLS.map((x) => x.tool));
    expect(now.body.result.tools).toEqual(then.body.result.tools);
    for (const res of [now, then]) expect(Buffer.byteLength(res.text, 'utf8')).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
    // The sizes for the note (issue 29): npx jest test/e2e/mcp-2026.e2e-spec.ts prints them.
    if (db === 'postgres') process.stdout.write(`tools/list bytes: ${MODERN} ${Buffer.byteLength(now.text, 'utf8')}, 2025-era ${Buffer.byteLength(then.text, 'utf8')}\n`);
  });

  it('a 2026-07-28 request without its standard headers is refused before any tool runs', async () => {
    const res = await request(t.url)
      .post('/ucp/mcp')
      .set('Authorization', `Bearer ${TEST_TOKEN}`)
      .set('Accept', 'application/json, text/event-stream')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/MCP-Protocol-Version/);
  });

  it('a revision the endpoint does not serve is refused with the versions it does; an initialize naming 2026-07-28 gets 2025-11-25', async () => {
    const res = await modern('server/discover', {}, TEST_TOKEN, '2027-01-01');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32022, data: { supported: [MODERN], requested: '2027-01-01' } });
    const init = await legacy('initialize', { protocolVersion: MODERN, capabilities: {}, clientInfo: { name: 'probe', version: '1' } }).expect(200);
    expect(init.body.result.protocolVersion).toBe('2025-11-25'); // 2026-07-28 has no initialize: discover it
  });

  it('a malformed tools/call is -32602 in the service\'s words; an unknown tool keeps its own; errors leak nothing', async () => {
    const bad = await modern('tools/call', { name: 5 }).expect(200);
    expect(bad.body.error).toMatchObject({ code: -32602, message: 'invalid $.params.name: expected a string', data: { messages: [{ code: 'invalid', path: '$.params.name' }] } });
    for (const leak of ['Invalid input', 'invalid_type', 'received']) expect(bad.text).not.toContain(leak);
    const unknown = await modern('tools/call', { name: 'nope', arguments: {} }).expect(200);
    expect(unknown.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('unknown tool: nope') });
  });

  it('a tool call answers the ucp JSON with its REST status, as in the 2025-era revisions', async () => {
    const now = await modern('tools/call', { name: 'list_namespaces', arguments: {} }).expect(200);
    const then = await legacy('tools/call', { name: 'list_namespaces', arguments: {} }).expect(200);
    expect(now.body.result.structuredContent).toEqual(then.body.result.structuredContent);
    expect(now.body.result._meta).toMatchObject({ 'com.example.svc/http_status': 200 });
    expect(JSON.parse(now.body.result.content[0].text)).toEqual(now.body.result.structuredContent);
  });

  it('the v2 SDK client negotiating (`auto`) lands on 2026-07-28; a wrong token is a typed 401', async () => {
    const url = new URL(`${t.url}/ucp/mcp`);
    const client = new Client2026({ name: 'auto', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${TEST_TOKEN}` } } }));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getInstructions()).toMatch(/integer fen/);
      expect((await client.listTools()).tools).toHaveLength(MCP_TOOLS.length);
    } finally {
      await client.close();
    }
    const wrong = new Client2026({ name: 'auto', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await expect(wrong.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: 'Bearer wrong' } } }))).rejects.toMatchObject({ status: 401 });
  });

  it('the stdio bridge speaks 2026-07-28 upstream and serves a desktop client of either era', async () => {
    for (const mode of ['auto', 'legacy'] as const) {
      const [local, remote] = InMemoryTransport.createLinkedPair();
      const bridge = await startBridge({ VENDING_URL: t.url, VENDING_TOKEN: TEST_TOKEN }, remote);
      const desktop = new Client2026({ name: 'desktop', version: '1' }, { versionNegotiation: { mode } });
      try {
        await desktop.connect(local);
        expect(desktop.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
        expect((await desktop.listTools()).tools.map((x) => x.name)).toEqual(MCP_TOOLS.map((x) => x.tool));
        const r = await desktop.callTool({ name: 'list_namespaces', arguments: {} });
        expect(r._meta).toMatchObject({ 'com.example.svc/http_status': 200 });
      } finally {
        await desktop.close();
        await bridge.close();
      }
    }
  });
});
