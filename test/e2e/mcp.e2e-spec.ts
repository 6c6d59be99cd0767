import request from 'supertest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, NS, ordersPosted, supplierApp } from '../support/money-fixtures';
import { callTool, codesOf, mcpClient } from '../support/mcp-client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { MCP_TOOLS } from '../../src/mcp/tools/mcp-tools.table';
import { startBridge } from '../../src/mcp/stdio-bridge';

const META = (key?: string) => ({ 'ucp-agent': { profile: 'https://agent.example/profile' }, ...(key ? { 'idempotency-key': key } : {}) });

describe.each(BOTH_DATABASES)('MCP transport, production with an HTTP supplier (%s)', (db) => {
  let p: FakePartner;
  let t: TestApp;
  let mcp: Client;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    t = await supplierApp(p, {}, db === 'embedded' ? 'embedded' : undefined);
    // The v2 SDK client (2026-07-28) on one database, the last 1.x client (2025-11-25) on the other.
    mcp = await mcpClient(t, undefined, db === 'postgres' ? '2026' : 'current');
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
    await p?.close();
  });
  beforeEach(() => p.clearFaults());

  it('discovery lists the MCP endpoint (absolute) and a served document of its tools', async () => {
    const profile = (await t.raw.get('/.well-known/ucp').expect(200)).body;
    const svc = profile.ucp.services['com.example.svc'].find((s: { transport: string }) => s.transport === 'mcp');
    // Production: absolute links from SERVICE_PUBLIC_URL (test-app's production default), never from the Host header.
    expect(svc.endpoint).toBe('http://vending.test/ucp/mcp');
    expect(svc.schema).toBe('http://vending.test/ucp/mcp/openrpc.json');
    const schema = await t.get(new URL(svc.schema).pathname).expect(200);
    expect(schema.body.methods.map((m: { name: string }) => m.name)).toEqual(MCP_TOOLS.map((x) => x.tool));
    expect((await t.raw.get('/ucp/mcp/openrpc.json')).status).toBe(401);
  });

  it('lists one tool per operation with UCP names, schemas and safety annotations', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((x) => x.name)).toEqual(MCP_TOOLS.map((x) => x.tool));
    const byName = Object.fromEntries(tools.map((x) => [x.name, x]));
    for (const ucp of ['create_checkout', 'get_checkout', 'update_checkout', 'complete_checkout', 'cancel_checkout', 'search_catalog', 'lookup_catalog', 'get_order']) expect(byName[ucp]).toBeDefined();
    const complete = byName.complete_checkout;
    expect(Object.keys(complete.inputSchema.properties ?? {}).sort()).toEqual(['checkout', 'id', 'meta']);
    expect(complete.inputSchema.required).toEqual(expect.arrayContaining(['meta', 'id', 'checkout']));
    expect(complete.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(complete.description).toMatch(/idempotency-key/);
    expect(complete.description).toMatch(/requires_escalation/);
    for (const money of ['update_prices', 'place_run', 'send_restock']) expect(byName[money].annotations?.destructiveHint).toBe(true);
    for (const read of ['get_checkout', 'search_catalog', 'list_orders', 'list_events']) expect(byName[read].annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.search_catalog.outputSchema).toBeUndefined(); // the OpenRPC document has the full answer schema
  });

  it('tools/list fits the 64 KB budget, measured as the bytes the endpoint writes', async () => {
    const res = await t
      .post('/ucp/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })
      .set('Accept', 'application/json, text/event-stream')
      .expect(200);
    expect(res.body.result.tools.length).toBe(MCP_TOOLS.length);
    expect(Buffer.byteLength(res.text, 'utf8')).toBeLessThanOrEqual(64 * 1024);
  });

  it('answers the 2025-era revisions with their own; an initialize naming 2026-07-28 is offered 2025-11-25', async () => {
    const init = (protocolVersion: string) =>
      t
        .post('/ucp/mcp', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'probe', version: '1' } } })
        .set('Accept', 'application/json, text/event-stream')
        .expect(200);
    for (const v of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) expect((await init(v)).body.result.protocolVersion).toBe(v);
    // 2026-07-28 has no initialize (a client discovers it with server/discover: mcp-2026.e2e-spec.ts): the newest
    // revision that has one is offered instead.
    expect((await init('2026-07-28')).body.result.protocolVersion).toBe('2025-11-25');
  });

  it('search_catalog answers what POST /catalog/search answers', async () => {
    const tool = await callTool(mcp, 'search_catalog', { meta: META(), catalog: { query: 'cola', filters: { namespace: NS } } });
    const rest = await t.post('/ucp/v1/catalog/search', { query: 'cola', filters: { namespace: NS } }).set('UCP-Agent', 'profile="https://agent.example/profile"');
    expect(tool.isError).toBe(false);
    expect(tool.status).toBe(rest.status);
    expect(tool.body).toEqual(rest.body);
    expect(JSON.stringify(tool.body)).toMatch(/COLA/);
  });

  it('create and complete: nothing without confirm, exactly one order with it, a retry with the same key answers the same', async () => {
    const created = await callTool(mcp, 'create_checkout', { meta: META(), checkout: { id: `MCP-1-${db}`, line_items: [{ item: { id: `${NS}:COLA` }, quantity: 2 }], fulfillment: DEST } });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('ready_for_complete');
    const id = `MCP-1-${db}`;
    const noConfirm = await callTool(mcp, 'complete_checkout', { meta: META('k-noconfirm'), id, checkout: {} });
    expect(noConfirm.isError).toBe(true);
    expect(codesOf(noConfirm)).toContain('confirmation_required');
    const noKey = await callTool(mcp, 'complete_checkout', { meta: META(), id, checkout: { confirm: true } });
    expect(noKey.isError).toBe(true);
    expect(noKey.body.messages[0]).toMatchObject({ code: 'missing', path: '$.meta["idempotency-key"]' });
    expect(ordersPosted(p, id)).toBe(0);

    const done = await callTool(mcp, 'complete_checkout', { meta: META(`k-${db}`), id, checkout: { confirm: true } });
    expect(done.isError).toBe(false);
    expect(done.body.status).toBe('completed');
    expect(ordersPosted(p, id)).toBe(1);
    const again = await callTool(mcp, 'complete_checkout', { meta: META(`k-${db}`), id, checkout: { confirm: true } });
    expect(again.replayed).toBe(true);
    expect(again.body).toEqual(done.body);
    expect(ordersPosted(p, id)).toBe(1);
    const order = await callTool(mcp, 'get_order', { meta: META(), id });
    expect(order.body.id).toBe(id);
  });

  it('the kill switch refuses complete_checkout over MCP as over REST, and nothing reaches the supplier', async () => {
    const id = `MCP-kill-${db}`;
    await callTool(mcp, 'create_checkout', { meta: META(), checkout: { id, line_items: [{ item: { id: `${NS}:WATER` }, quantity: 1 }], fulfillment: DEST } });
    const on = await callTool(mcp, 'set_kill_switch', { kill_switch: { engaged: true, reason: 'agent test' } });
    expect(on.status).toBe(200);
    try {
      const refused = await callTool(mcp, 'complete_checkout', { meta: META(`kill-${db}`), id, checkout: { confirm: true } });
      expect(refused.isError).toBe(true);
      expect(refused.status).toBe(409);
      expect(codesOf(refused)).toContain('kill_switch_engaged');
      expect(ordersPosted(p, id)).toBe(0);
    } finally {
      await t.put('/ucp/v1/admin/kill-switch', { engaged: false, reason: 'test over' }).expect(200);
    }
  });

  it('bad input is a clear tool error, never a server failure', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['get_checkout', { meta: META() }, 'invalid'],
      ['get_checkout', { id: { nested: true } }, 'invalid'],
      ['get_checkout', { id: 'x', surprise: 1 }, 'invalid'],
      ['create_checkout', { checkout: { line_items: [{ item: { id: `${NS}:COLA` }, quantity: 'two' }] } }, 'invalid'],
      ['create_checkout', { checkout: 'not an object' }, 'invalid'],
      ['list_orders', { limit: [1, 2] }, 'invalid'],
      ['list_orders', { kind: 'nope' }, 'invalid'],
      ['get_checkout', { id: 'no-such-session' }, 'not_found'],
      ['complete_checkout', { meta: { 'idempotency-key': 'bad key with spaces' }, id: 'x', checkout: { confirm: true } }, 'invalid'],
      ['search_catalog', { meta: { 'ucp-agent': { profile: 'https://a.example/\n' } }, catalog: {} }, 'invalid'],
    ];
    for (const [name, args, code] of cases) {
      const a = await callTool(mcp, name, args);
      expect({ name, args, isError: a.isError, codes: codesOf(a) }).toEqual({ name, args, isError: true, codes: expect.arrayContaining([code]) });
      expect(a.status).toBeLessThan(500);
    }
    await expect(mcp.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/unknown tool/);
  });

  it('the stdio bridge forwards tools/list and tools/call to the endpoint with VENDING_TOKEN', async () => {
    const [local, remote] = InMemoryTransport.createLinkedPair();
    const bridge = await startBridge({ VENDING_URL: t.url, VENDING_TOKEN: t.token }, remote);
    const desktop = new SdkClient({ name: 'desktop', version: '1.0.0' });
    try {
      await desktop.connect(local);
      expect((await desktop.listTools()).tools.map((x) => x.name)).toEqual(MCP_TOOLS.map((x) => x.tool));
      const viaBridge = await callTool(desktop, 'list_namespaces');
      const direct = await callTool(mcp, 'list_namespaces');
      expect(viaBridge.body).toEqual(direct.body);
    } finally {
      await desktop.close();
      await bridge.close();
    }
    await expect(startBridge({ VENDING_URL: t.url, VENDING_TOKEN: 'wrong' }, InMemoryTransport.createLinkedPair()[1])).rejects.toMatchObject({ status: 401 });
  });

  it('no token: 401 before any tool runs, as on REST; GET and DELETE are 405', async () => {
    await expect(mcpClient(t, {})).rejects.toMatchObject({ code: 401 });
    await expect(mcpClient(t, { Authorization: 'Bearer wrong' })).rejects.toMatchObject({ code: 401 });
    const init = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const res = await request(t.url).post('/ucp/mcp').set('Accept', 'application/json, text/event-stream').send(init);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, data: { messages: [{ code: 'unauthorized' }] } } });
    expect((await t.get('/ucp/mcp')).status).toBe(405);
    expect((await t.del('/ucp/mcp')).status).toBe(405);
    expect(t.logs.join('\n')).not.toContain(t.token);
  });
});

describe('MCP without a configured token', () => {
  it('answers 503 auth_not_configured, as the REST routes do', async () => {
    const t = await startTestApp({ db: 'embedded', env: { SERVICE_AUTH_TOKEN: undefined } });
    try {
      const rest = await t.raw.get('/ucp/v1/namespaces');
      const res = await request(t.url).post('/ucp/mcp').set('Accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      expect(rest.status).toBe(503);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, data: { messages: [{ code: 'auth_not_configured' }] } } });
    } finally {
      await t.close();
    }
  });
});
