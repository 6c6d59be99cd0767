import { expectError } from '../support/envelope';
import { Fleet, startFleetApp, startFleetPartners } from '../support/fleet';
import { callTool, mcpClient } from '../support/mcp-client';
import { connectAgent, ConnectedTestAgent, registerClient } from '../support/oauth-agent';
import { TestApp } from '../support/test-app';

/**
 * Issue 36: the MCP endpoint and the REST API as an OAuth protected resource, the service's own authorization server,
 * and what a grant lets an agent do (read, or operate, never the owner's powers), attributed to its client.
 */
jest.setTimeout(90_000);

type Any = Record<string, any>;
const overCap = (amount: number) => ({ confirm: true, prices: [{ item: { id: 'acme-machine:COLA' }, price: { amount, currency: 'CNY' } }] });

describe.each(['postgres', 'embedded'] as const)('agents connected through OAuth (%s)', (db) => {
  let fleet: Fleet;
  let t: TestApp;
  let reader: ConnectedTestAgent;
  let operator: ConnectedTestAgent;
  const as = (a: ConnectedTestAgent) => ({ Authorization: `Bearer ${a.accessToken}` });
  beforeAll(async () => {
    fleet = await startFleetPartners();
    const vendors = (JSON.parse(fleet.env.SERVICE_HTTP_VENDORS) as { namespace: string; capabilities: string[] }[]).map((v) =>
      v.namespace === 'acme-machine' ? { ...v, capabilities: [...v.capabilities, 'pricing'] } : v,
    );
    // Staging: the issuer and resource are the address the test reaches (production names SERVICE_PUBLIC_URL).
    t = await startFleetApp(fleet, { SERVICE_ENV: 'staging', SERVICE_HTTP_VENDORS: JSON.stringify(vendors) }, undefined, db);
    reader = await connectAgent(t, { scope: 'read', name: 'Reader bot' });
    operator = await connectAgent(t, { scope: 'operate', name: 'Operator bot' });
  });
  afterAll(async () => {
    await t?.close();
    await fleet?.close();
  });

  it('names its protected resource metadata on every 401, and serves it and the authorization server metadata', async () => {
    const mcp = await t.raw.post('/ucp/mcp').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(mcp.status).toBe(401);
    const challenge = `Bearer realm="ucp", resource_metadata="${t.url}/.well-known/oauth-protected-resource", scope="read operate"`;
    expect(mcp.headers['www-authenticate']).toBe(challenge);
    const rest = await t.raw.get('/ucp/v1/orders');
    expectError(rest, 401, 'unauthorized');
    expect(rest.headers['www-authenticate']).toBe(challenge);
    const wrong = await t.raw.get('/ucp/v1/orders').set('Authorization', 'Bearer not-a-token');
    expect(wrong.headers['www-authenticate']).toContain('error="invalid_token"');

    const prm = (await t.raw.get('/.well-known/oauth-protected-resource').expect(200)).body;
    expect(prm).toMatchObject({ resource: `${t.url}/`, authorization_servers: [`${t.url}/oauth`], scopes_supported: ['read', 'operate'], bearer_methods_supported: ['header'] });
    expect((await t.raw.get('/.well-known/oauth-protected-resource/ucp/mcp').expect(200)).body).toEqual(prm);

    const meta = (await t.raw.get('/.well-known/oauth-authorization-server/oauth').expect(200)).body;
    expect(meta).toMatchObject({
      issuer: `${t.url}/oauth`,
      authorization_endpoint: `${t.url}/oauth/auth`,
      token_endpoint: `${t.url}/oauth/token`,
      registration_endpoint: `${t.url}/oauth/reg`,
      revocation_endpoint: `${t.url}/oauth/token/revocation`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      client_id_metadata_document_supported: true,
    });
    expect((await t.raw.get('/oauth/.well-known/openid-configuration').expect(200)).body).toEqual(meta);
  });

  it('takes PKCE S256 only and the registered redirect URI exactly', async () => {
    const reg = await registerClient(t.url);
    expect(reg.status).toBe(201);
    const id = reg.body.client_id as string;
    const ask = (p: Record<string, string>) => fetch(`${t.url}/oauth/auth?${new URLSearchParams({ response_type: 'code', client_id: id, scope: 'read', ...p })}`, { redirect: 'manual' });
    // No challenge, or the plain method: refused back to the client (its redirect URI is registered).
    const none = await ask({ redirect_uri: 'http://127.0.0.1:9/callback' });
    expect(new URL(none.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const plain = await ask({ redirect_uri: 'http://127.0.0.1:9/callback', code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' });
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    // Another redirect URI, even a longer path of the registered one: never redirected to.
    const other = await ask({ redirect_uri: 'http://127.0.0.1:9/callback/x', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
    expect(other.status).toBe(400);
    expect(other.headers.get('location')).toBeNull();
  });

  it('takes a client ID metadata document only from a public https URL', async () => {
    const ask = (clientId: string) =>
      fetch(`${t.url}/oauth/auth?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: 'https://app.example/cb', scope: 'read', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })}`, { redirect: 'manual' });
    // Plain http, and an https URL on a loopback address (the server's SSRF protection): no client, never a redirect.
    for (const id of ['http://app.example/client.json', 'https://127.0.0.1:9/client.json']) {
      const res = await ask(id);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('invalid_client');
    }
  });

  it('a read grant reads over REST and MCP, and is refused a write with a clear error in the tool\'s terms', async () => {
    expect(reader.scope).toBe('read');
    expect((await t.raw.get('/ucp/v1/locations/FLEET-1/inventory').set(as(reader))).status).toBe(200);
    const write = await t.raw.post('/ucp/v1/events').set(as(reader)).send({ kind: 'note', summary: 's', reasoning: 'r' });
    expectError(write, 403, 'forbidden');
    expect(write.body.messages[0].content).toContain('POST /ucp/v1/events changes something, and this agent\'s grant is read only');

    const client = await mcpClient(t, as(reader));
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(10);
      expect((await callTool(client, 'search_locations', {})).status).toBe(200);
      const refused = await callTool(client, 'update_prices', { meta: { 'idempotency-key': `ro-${db}` }, id: 'FLEET-1', prices: overCap(400) });
      expect(refused).toMatchObject({ isError: true, status: 403 });
      expect(refused.body.messages[0]).toMatchObject({ code: 'forbidden' });
      expect(refused.body.messages[0].content).toContain('the tool update_prices changes something, and this agent\'s grant is read only');
    } finally {
      await client.close();
    }
  });

  it('an operate grant writes, attributed to its client, and never has the owner\'s powers', async () => {
    expect(operator.scope).toBe('read operate');
    const client = await mcpClient(t, { ...as(operator), 'UCP-Agent': 'profile="https://agent.example/p"' });
    try {
      const r = await callTool(client, 'update_prices', { meta: { 'idempotency-key': `op-${db}` }, id: 'FLEET-2', prices: overCap(9500) });
      expect(r.status).toBe(200);
      const id = (r.body.actions as Any[])[0].approval_id as string;
      const a = (await t.get(`/ucp/v1/approvals/${id}`).expect(200)).body.approval;
      expect(a.requested_by).toEqual({ channel: 'mcp', credential: 'agent', agent: 'https://agent.example/p', client_id: operator.clientId });
      const requested = (await t.get('/ucp/v1/events?kind=approval.requested').expect(200)).body.events[0];
      expect(requested.data.agent_client_id).toBe(operator.clientId);

      // The owner's powers: resolving an approval (either channel), releasing the kill switch, replacing guard rules.
      const resolve = await callTool(client, 'resolve_approval', { id, resolution: { approved: true, resolver: { channel: 'dashboard' } } });
      expect(resolve).toMatchObject({ isError: true, status: 403 });
      expect(resolve.body.messages[0].content).toContain('never has the owner\'s powers');
      const chat = await t.raw.post(`/ucp/v1/approvals/${id}`).set(as(operator)).send({ approved: true, resolver: { channel: 'chat_tool', chat_id: 'c', sender_id: 's' } });
      expectError(chat, 403, 'forbidden');
      expect((await t.raw.put('/ucp/v1/admin/kill-switch').set(as(operator)).send({ engaged: true, reason: 'agent stop' })).status).toBe(200);
      expectError(await t.raw.put('/ucp/v1/admin/kill-switch').set(as(operator)).send({ engaged: false }), 403, 'forbidden');
      const guards = (await t.get('/ucp/v1/admin/guards').expect(200)).body.guards;
      expectError(await t.raw.put('/ucp/v1/admin/guards').set(as(operator)).send(guards), 403, 'forbidden');
      await t.put('/ucp/v1/admin/kill-switch', { engaged: false, reason: 'test over' }).expect(200);
      // Connecting or disconnecting agents is a person's.
      expectError(await t.raw.get('/ucp/v1/agents').set(as(operator)), 403, 'forbidden');
    } finally {
      await client.close();
    }
  });

  it('binds an idempotency key to the client, logs the client and never the token', async () => {
    const body = { confirm: true, prices: [{ item: { id: 'acme-machine:TEA' }, price: { amount: 460, currency: 'CNY' } }] };
    const path = '/ucp/v1/locations/FLEET-1/prices';
    const first = await t.raw.put(path).set(as(operator)).set('Idempotency-Key', `k-${db}`).send(body);
    expect(first.status).toBe(200);
    const other = await connectAgent(t, { scope: 'operate', name: 'Another bot' });
    expectError(await t.raw.put(path).set(as(other)).set('Idempotency-Key', `k-${db}`).send(body), 409, 'idempotency_key_mismatch');
    expectError(await t.put(path, body).set('Idempotency-Key', `k-${db}`), 409, 'idempotency_key_mismatch');
    const replay = await t.raw.put(path).set(as(operator)).set('Idempotency-Key', `k-${db}`).send(body);
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    // Its events carry the client: a client event too.
    const note = await t.raw.post('/ucp/v1/events').set(as(operator)).send({ kind: 'agent.note', summary: 'from the agent', reasoning: 'attribution' });
    expect(note.status).toBe(201);
    expect((await t.get('/ucp/v1/events?kind=agent.note').expect(200)).body.events[0].data).toEqual({ agent_client_id: operator.clientId });

    const lines = t.logs.filter((l) => l.includes('"client_id"'));
    expect(lines.some((l) => l.includes(`"client_id":${JSON.stringify(operator.clientId)}`))).toBe(true);
    for (const a of [reader, operator, other]) {
      expect(t.logs.some((l) => l.includes(a.accessToken) || l.includes(a.refreshToken))).toBe(false);
    }
  });

  it('lists the connected agents with their scope and last use', async () => {
    const agents = (await t.get('/ucp/v1/agents').expect(200)).body.agents as Any[];
    const byId = new Map(agents.map((a) => [a.client_id, a]));
    expect(byId.get(reader.clientId)).toMatchObject({ name: 'Reader bot', scope: 'read', consented_by: 'operator', redirect_host: '127.0.0.1:9' });
    expect(byId.get(operator.clientId)).toMatchObject({ name: 'Operator bot', scope: 'operate' });
    expect(byId.get(operator.clientId)?.last_used_at).toMatch(/\+08:00$/);
    const connected = (await t.get('/ucp/v1/events?kind=agent.connected').expect(200)).body.events as Any[];
    expect(connected.map((e) => e.data.client_id)).toEqual(expect.arrayContaining([reader.clientId, operator.clientId]));
  });
});
