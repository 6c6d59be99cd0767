import { connectAgent, tokenRequest } from '../support/oauth-agent';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 36: short-lived access tokens, refresh tokens that rotate, revocation (RFC 7009) and a person's disconnect,
 * each holding on every instance of one database; a token for another resource is refused.
 */
jest.setTimeout(90_000);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function revoke(base: string, clientId: string, token: string): Promise<number> {
  const res = await fetch(`${base}/oauth/token/revocation`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, client_id: clientId }),
  });
  return res.status;
}

describe('refresh, revocation and disconnect across two instances (postgres)', () => {
  let a: TestApp;
  let b: TestApp;
  // Production: both instances are one service, SERVICE_PUBLIC_URL (the issuer and the resource), reached at two addresses.
  const PUBLIC = 'http://vending.test';
  const resource = `${PUBLIC}/`;
  beforeAll(async () => {
    const env = { SERVICE_ENV: 'production', SERVICE_PUBLIC_URL: PUBLIC };
    a = await startTestApp({ env });
    b = await startTestApp({ databaseUrl: a.databaseUrl!, env });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a refresh token rotates: the new pair works on the other instance, the old refresh token is refused', async () => {
    const agent = await connectAgent(a, { scope: 'read', resource });
    expect((await b.raw.get('/ucp/v1/namespaces').set(bearer(agent.accessToken))).status).toBe(200);
    const at = (await tokenRequest(b.url, { grant_type: 'refresh_token', refresh_token: agent.refreshToken, client_id: agent.clientId, resource })).body;
    expect(at).toMatchObject({ token_type: 'Bearer', scope: 'read', expires_in: 600 });
    expect(at.refresh_token).not.toBe(agent.refreshToken);
    expect((await a.raw.get('/ucp/v1/namespaces').set(bearer(at.access_token))).status).toBe(200);
    expect((await b.raw.get('/ucp/v1/namespaces').set(bearer(at.access_token))).status).toBe(200);
    const again = await tokenRequest(a.url, { grant_type: 'refresh_token', refresh_token: agent.refreshToken, client_id: agent.clientId });
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a revoked refresh token ends the grant: its access token is refused on every instance', async () => {
    const agent = await connectAgent(a, { scope: 'operate', resource });
    expect((await b.raw.get('/ucp/v1/orders').set(bearer(agent.accessToken))).status).toBe(200);
    expect(await revoke(a.url, agent.clientId, agent.refreshToken)).toBe(200);
    for (const t of [a, b]) {
      const res = await t.raw.get('/ucp/v1/orders').set(bearer(agent.accessToken));
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
    }
    expect((await tokenRequest(b.url, { grant_type: 'refresh_token', refresh_token: agent.refreshToken, client_id: agent.clientId })).body.error).toBe('invalid_grant');
  });

  it('a person disconnects an agent on one instance: the other refuses it at once, and its refresh token too', async () => {
    const agent = await connectAgent(a, { scope: 'operate', name: 'Doomed bot', resource });
    expect((await a.raw.get('/ucp/v1/orders').set(bearer(agent.accessToken))).status).toBe(200);
    const gone = await b.del(`/ucp/v1/agents/${encodeURIComponent(agent.clientId)}`).expect(200);
    expect(gone.body.agent).toMatchObject({ client_id: agent.clientId, name: 'Doomed bot', scope: 'operate' });
    expect((await a.raw.get('/ucp/v1/orders').set(bearer(agent.accessToken))).status).toBe(401);
    expect((await tokenRequest(a.url, { grant_type: 'refresh_token', refresh_token: agent.refreshToken, client_id: agent.clientId })).body.error).toBe('invalid_grant');
    expect((await a.get('/ucp/v1/agents').expect(200)).body.agents.map((x: { client_id: string }) => x.client_id)).not.toContain(agent.clientId);
    expect((await a.del(`/ucp/v1/agents/${encodeURIComponent(agent.clientId)}`)).status).toBe(404);
    expect((await a.get('/ucp/v1/events?kind=agent.disconnected').expect(200)).body.events[0].data).toEqual({ client_id: agent.clientId });
  });
});

describe.each(['postgres', 'embedded'] as const)('a token for another resource (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
  });
  afterAll(() => t?.close());

  it('is never issued, and one issued for another address of the service is refused', async () => {
    await expect(connectAgent(t, { scope: 'read', resource: 'https://other.example/' })).rejects.toThrow(/invalid_target/);
    const agent = await connectAgent(t, { scope: 'read' });
    expect((await t.raw.get('/ucp/v1/orders').set(bearer(agent.accessToken))).status).toBe(200);
    // The same service reached by another name is another resource (staging: the Host names it).
    const elsewhere = await t.raw.get('/ucp/v1/orders').set(bearer(agent.accessToken)).set('Host', 'other.example');
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers['www-authenticate']).toContain('resource_metadata="http://other.example/.well-known/oauth-protected-resource"');
  });
});

// The authorization server's requests carry no credential, so they count against the address (issue 37): the limit
// leaves room for two connections (about 5 such requests each) below it.
const LIMIT = 12;

describe('the rate limit counts each agent on its own (embedded)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'embedded', env: { SERVICE_RATE_LIMIT: String(LIMIT), SERVICE_RATE_LIMIT_WINDOW_MS: '600000' } });
  });
  afterAll(() => t?.close());

  it('one agent over its limit is refused while another agent and the operator token go on', async () => {
    // Connecting costs the address's and the operator token's requests (the consent calls), not the agents'.
    const one = await connectAgent(t, { scope: 'read', name: 'Busy bot' });
    const two = await connectAgent(t, { scope: 'read', name: 'Quiet bot' });
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await t.raw.get('/ucp/v1/namespaces').set(bearer(one.accessToken))).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429]);
    expect((await t.raw.get('/ucp/v1/namespaces').set(bearer(two.accessToken))).status).toBe(200);
    expect((await t.get('/ucp/v1/namespaces')).status).toBe(200);
  });
});
