import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 36: an enterprise's own authorization server instead of the built-in one (SERVICE_OAUTH_ISSUER and
 * SERVICE_OAUTH_JWKS_URL): the metadata names it, its JWT access tokens are checked against its published keys, for
 * this service's audience, with the same scopes; the built-in server is not served.
 */
jest.setTimeout(60_000);

type Jose = typeof import('jose');

describe.each(['postgres', 'embedded'] as const)('an outside authorization server (%s)', (db) => {
  let jose: Jose;
  let t: TestApp;
  let idp: Server;
  let issuer: string;
  let sign: (claims: Record<string, unknown>, key?: CryptoKey) => Promise<string>;
  let stranger: CryptoKey;

  beforeAll(async () => {
    jose = await import('jose');
    const { publicKey, privateKey } = await jose.generateKeyPair('ES256');
    stranger = (await jose.generateKeyPair('ES256')).privateKey;
    const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    idp = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
    issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}/realms/ops`;
    t = await startTestApp({ db, env: { SERVICE_OAUTH_ISSUER: issuer, SERVICE_OAUTH_JWKS_URL: `${issuer.replace('/realms/ops', '')}/jwks` } });
    sign = (claims, key = privateKey) =>
      new jose.SignJWT({ iss: issuer, aud: `${t.url}/`, client_id: 'enterprise-agent', scope: 'read', ...claims }).setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' }).setIssuedAt().setExpirationTime('5m').sign(key);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => idp?.close(r));
  });

  it('names the outside server in the metadata and discovery, and serves no server of its own', async () => {
    expect((await t.raw.get('/.well-known/oauth-protected-resource').expect(200)).body.authorization_servers).toEqual([issuer]);
    const profile = (await t.raw.get('/.well-known/ucp').expect(200)).body;
    const mcp = profile.ucp.services['com.example.svc'].find((s: { transport: string }) => s.transport === 'mcp');
    expect(mcp.authorization.authorization_server_metadata).toBe(`${new URL(issuer).origin}/.well-known/oauth-authorization-server/realms/ops`);
    expect((await t.raw.get('/.well-known/oauth-authorization-server/oauth')).status).toBe(404);
    expect((await t.raw.post('/oauth/reg').send({})).status).toBe(404);
  });

  it('takes its tokens for this service with their scope, and refuses the rest', async () => {
    const read = await sign({});
    expect((await t.raw.get('/ucp/v1/namespaces').set('Authorization', `Bearer ${read}`)).status).toBe(200);
    const write = await t.raw.post('/ucp/v1/events').set('Authorization', `Bearer ${read}`).send({ kind: 'n', summary: 's', reasoning: 'r' });
    expectError(write, 403, 'forbidden');
    const operate = await sign({ scope: 'read operate' });
    const note = await t.raw.post('/ucp/v1/events').set('Authorization', `Bearer ${operate}`).send({ kind: 'enterprise.note', summary: 's', reasoning: 'r' });
    expect(note.status).toBe(201);
    expect((await t.get('/ucp/v1/events?kind=enterprise.note').expect(200)).body.events[0].data).toEqual({ agent_client_id: 'enterprise-agent' });
    for (const bad of [await sign({ aud: 'https://other.example/' }), await sign({ iss: 'https://evil.example' }), await sign({}, stranger), await sign({ scope: 'email' }), await sign({ client_id: undefined })]) {
      const res = await t.raw.get('/ucp/v1/namespaces').set('Authorization', `Bearer ${bad}`);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
    }
    // The operator token works as before.
    expect((await t.get('/ucp/v1/namespaces')).status).toBe(200);
  });
});
