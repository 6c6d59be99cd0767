import { startTestApp, TestApp, TEST_TOKEN } from '../support/test-app';
import { signedInCookie } from '../support/session-cookie';
import { expectEnvelope, expectError } from '../support/envelope';

// Run on PostgreSQL by foundation.e2e-spec.ts (which also holds failing closed without a token) and on the embedded
// database by foundation-embedded.e2e-spec.ts (which also holds the partner registry from SERVICE_HTTP_VENDORS), so a
// file each stays under 20 s.

const CAPABILITIES = [
  'dev.ucp.shopping.checkout',
  'dev.ucp.shopping.catalog.search',
  'dev.ucp.shopping.catalog.lookup',
  ...['inventory', 'sku', 'location', 'order', 'pricing', 'replenishment', 'approval', 'events'].map((c) => `com.example.svc.${c}`),
];

/** The foundation every route stands on: discovery, namespaces, the token, the error envelope, health, logs. */
export function foundationSuite(db: 'postgres' | 'embedded'): void {
  describe(`foundation on ${db} database`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ db });
    });
    afterAll(() => t.close());

    it('serves the UCP profile at /.well-known/ucp without a token', async () => {
      const res = await t.raw.get('/.well-known/ucp').expect(200);
      const ucp = res.body.ucp;
      expect(ucp.version).toBe('2026-08-25');
      const [svc] = Object.values(ucp.services as Record<string, { transport: string; endpoint: string }[]>)[0];
      expect(svc.transport).toBe('rest');
      expect(svc.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ucp\/v1$/);
      expect(Object.keys(ucp.capabilities).sort()).toEqual([...CAPABILITIES].sort());
      for (const c of CAPABILITIES) expect(typeof ucp.capabilities[c][0].version).toBe('string');
      // Issue 26: the partner namespaces (vendors, roles) are listed to token holders only.
      expect(ucp.capabilities['com.example.svc.sku'][0].config).toEqual({ namespaces: [], vendors: [], listed_to: 'token holders' });
      const held = (await t.get('/.well-known/ucp').expect(200)).body.ucp;
      const namespaces = held.capabilities['com.example.svc.sku'][0].config.namespaces.map((n: { namespace: string }) => n.namespace);
      expect(namespaces).toEqual(expect.arrayContaining(['sim-machine', 'sim-supply']));
      expect(held.capabilities['com.example.svc.sku'][0].config.vendors).toEqual(expect.arrayContaining(['sim']));
      expect(JSON.stringify(ucp)).not.toContain('sim-machine');
      expect(ucp.capabilities['com.example.svc.events'][0].config.websocket_url).toMatch(/^ws:\/\/.+\/ucp\/v1\/events\/ws$/);
      expect(ucp.payment_handlers['com.example.svc.supplier_account'][0].id).toBe('supplier_account');
    });

    it('lists namespaces with defaults, read from the registry', async () => {
      const res = await t.get('/ucp/v1/namespaces').expect(200);
      expectEnvelope(res.body, 'success');
      expect(res.body.defaults).toEqual({ machine: 'sim-machine', supply: 'sim-supply' });
      const m = res.body.namespaces.find((n: { namespace: string }) => n.namespace === 'sim-machine');
      expect(m).toMatchObject({ vendor: 'sim', role: 'machine', status: 'live' });
      expect(m.capabilities).toEqual(expect.arrayContaining(['inventory', 'ledger']));
    });

    it('refuses a missing or wrong token with 401 and accepts the auth cookie', async () => {
      expectError(await t.raw.get('/ucp/v1/namespaces'), 401, 'unauthorized');
      expectError(await t.raw.get('/ucp/v1/namespaces').set('Authorization', 'Bearer nope'), 401, 'unauthorized');
      expectError(await t.raw.get('/ucp/v1/namespaces').set('Authorization', `Bearer ${TEST_TOKEN}x`), 401, 'unauthorized');
      await t.raw.get('/ucp/v1/namespaces').set('Cookie', await signedInCookie(t)).expect(200);
      expectError(await t.raw.get('/ucp/v1/namespaces').set('Cookie', `other_auth=${TEST_TOKEN}`), 401, 'unauthorized');
      // Issue 26: the cookie holds a session id; the raw token in it authenticates nothing.
      expectError(await t.raw.get('/ucp/v1/namespaces').set('Cookie', `vending_auth=${TEST_TOKEN}`), 401, 'unauthorized');
    });

    it('answers unknown routes with 404 not_found in the envelope', async () => {
      expectError(await t.get('/ucp/v1/no-such-thing'), 404, 'not_found');
      expectError(await t.raw.get('/nothing-here'), 404, 'not_found');
    });

    it('answers malformed JSON with 400 invalid, never a stack trace', async () => {
      const res = await t.post('/ucp/v1/events').set('Content-Type', 'application/json').send('{"kind": ');
      expectError(res, 400, 'invalid');
    });

    it('answers a body over the limit with 400 request_too_large', async () => {
      const big = { kind: 'x', summary: 'y', reasoning: 'z'.repeat(t.config.maxBodyBytes + 10) };
      expectError(await t.post('/ucp/v1/events', big), 400, 'request_too_large');
    });

    it('answers validation failures with missing / invalid and a JSONPath', async () => {
      const res = await t.post('/ucp/v1/events', { summary: 's', reasoning: 'r' });
      expectError(res, 400, 'missing');
      expect(res.body.messages[0].path).toBe('$.kind');
      const res2 = await t.post('/ucp/v1/events', { kind: 5, summary: 's', reasoning: 'r' });
      expectError(res2, 400, 'invalid');
    });

    it('serves health and readiness without a token, and the OpenAPI document only with one', async () => {
      await t.raw.get('/healthz').expect(200);
      await t.raw.get('/readyz').expect(200);
      expectError(await t.raw.get('/ucp/v1/openapi.json'), 401, 'unauthorized');
      const doc = await t.get('/ucp/v1/openapi.json').expect(200);
      expect(doc.body.openapi).toMatch(/^3\./);
      expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/ucp/v1/events', '/ucp/v1/namespaces']));
    });

    it('records UCP-Agent and answers a malformed one with a warning, never a refusal', async () => {
      const good = await t.get('/ucp/v1/namespaces').set('UCP-Agent', 'profile="https://agent.example/.well-known/ucp"').expect(200);
      expect(good.body.messages.map((m: { code: string }) => m.code)).not.toContain('ucp_agent_malformed');
      expect(t.logs.join('')).toContain('https://agent.example/.well-known/ucp');
      const bad = await t.get('/ucp/v1/namespaces').set('UCP-Agent', 'profile=not-a-string').expect(200);
      const warn = bad.body.messages.find((m: { code: string }) => m.code === 'ucp_agent_malformed');
      expect(warn).toMatchObject({ type: 'warning', severity: 'warning' });
    });

    it('never writes the token to the log', async () => {
      await t.get('/ucp/v1/namespaces').expect(200);
      await t.raw.get('/ucp/v1/namespaces').set('Cookie', await signedInCookie(t)).expect(200);
      await t.raw.get('/ucp/v1/namespaces').set('Authorization', `Bearer ${TEST_TOKEN}-wrong`).expect(401);
      await t.post('/ucp/v1/events', { kind: 'k', summary: 's', reasoning: 'r' }).expect(201);
      const all = t.logs.join('');
      expect(all.length).toBeGreaterThan(0);
      expect(all).toContain('/ucp/v1/namespaces'); // requests are logged…
      expect(all).not.toContain(TEST_TOKEN); // …without the token
    });
  });
}
