import type { Server } from 'node:http';
import { expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';
import { signedInCookie } from '../support/session-cookie';
import { callTool, mcpClient } from '../support/mcp-client';

// Both parts run on PostgreSQL in http-hardening.e2e-spec.ts; on the embedded database the headers part runs in
// http-hardening-embedded.e2e-spec.ts (with production links never coming from Host) and the rate limit per credential
// in http-hardening-rate-limit-embedded.e2e-spec.ts, so a file each stays under 20 s.

/** Issue 17 item 5 (this branch's bullets): headers, Host, token before body, timeouts. */
export function httpHardeningSuite(db: 'postgres' | 'embedded'): void {
  describe(`HTTP hardening (${db})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ db });
    });
    afterAll(() => t.close());

    it('X-Content-Type-Options: nosniff on every answer; Cache-Control: no-store on authenticated ones', async () => {
      const answers = [
        await t.raw.get('/.well-known/ucp'),
        await t.raw.get('/healthz'),
        await t.raw.get('/ucp/v1/approvals'),
        await t.get('/ucp/v1/approvals'),
        await t.get('/ucp/v1/no-such-route'),
        await t.get('/ucp/v1/openapi.json'),
      ];
      for (const a of answers) expect(a.headers['x-content-type-options']).toBe('nosniff');
      expect(answers[2].headers['cache-control']).toBe('no-store');
      expect(answers[3].headers['cache-control']).toBe('no-store');
      expect(answers[5].headers['cache-control']).toBe('no-store');
      expect(answers[3].headers['x-powered-by']).toBeUndefined();
    });

    it('the token is checked before the body is parsed: a body without a valid token is never parsed', async () => {
      // A malformed body and one of deeply nested brackets: 401 (the parser would have answered 400).
      expectError(await t.raw.post('/ucp/v1/events').set('Content-Type', 'application/json').send('{"kind": '), 401, 'unauthorized');
      const nested = '['.repeat(500_000) + ']'.repeat(500_000);
      const started = Date.now();
      const res = await t.raw.post('/ucp/v1/checkout-sessions').set('Content-Type', 'application/json').send(nested);
      expectError(res, 401, 'unauthorized');
      expect(Date.now() - started).toBeLessThan(5000);
      // An oversized body without a token is a 401, not a request_too_large (nothing was read into the parser).
      const big = JSON.stringify({ kind: 'x', summary: 'y', reasoning: 'z'.repeat(t.config.maxBodyBytes + 10) });
      expectError(await t.raw.post('/ucp/v1/events').set('Content-Type', 'application/json').send(big), 401, 'unauthorized');
      // With the token the same malformed body is still a 400, and public routes are still public.
      expectError(await t.post('/ucp/v1/events').set('Content-Type', 'application/json').send('{"kind": '), 400, 'invalid');
      expect((await t.raw.get('/.well-known/ucp')).status).toBe(200);
      expect((await t.raw.get('/readyz')).status).toBe(200);
    });

    it('explicit server timeouts instead of Node\'s defaults (headers 60 s, request 300 s)', () => {
      const server = t.app.getHttpServer() as Server;
      expect(server.headersTimeout).toBe(10_000);
      expect(server.requestTimeout).toBe(30_000);
      expect(server.keepAliveTimeout).toBe(5_000);
    });

    it('staging keeps the Host fallback for links', async () => {
      const res = await t.raw.get('/.well-known/ucp').set('Host', 'elsewhere.example');
      expect(JSON.stringify(res.body)).toContain('http://elsewhere.example/ucp/v1');
    });
  });
}

/** Issue 17 item 5: the rate limit, per credential. */
export function rateLimitPerCredentialSuite(db: 'postgres' | 'embedded'): void {
  describe(`rate limit per credential (${db})`, () => {
    const APPROVER = 'owner-approver-token-7d41e0b2';
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ db, env: { SERVICE_RATE_LIMIT: '3', SERVICE_RATE_LIMIT_WINDOW_MS: '60000', SERVICE_APPROVER_TOKEN: APPROVER } });
    });
    afterAll(() => t.close());

    it('past the limit: 429 rate_limited in the envelope with Retry-After; each credential has its own bucket across routes', async () => {
      expect((await t.get('/ucp/v1/approvals')).status).toBe(200);
      expect((await t.get('/ucp/v1/namespaces')).status).toBe(200);
      expect((await t.get('/ucp/v1/approvals')).status).toBe(200);
      const over = await t.get('/ucp/v1/namespaces');
      expectError(over, 429, 'rate_limited');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
      // Another credential is counted apart; the cookie is the same credential as the bearer header.
      expect((await t.raw.get('/ucp/v1/approvals').set('Authorization', `Bearer ${APPROVER}`)).status).toBe(200);
      expectError(await t.raw.get('/ucp/v1/approvals').set('Cookie', await signedInCookie(t)), 429, 'rate_limited');
    });

    it('an MCP tool call is counted once (its in-process REST request is not counted again)', async () => {
      const limited = await startTestApp({ db, env: { SERVICE_RATE_LIMIT: '8', SERVICE_RATE_LIMIT_WINDOW_MS: '60000' } });
      const mcp = await mcpClient(limited); // initialize and its notification: at most 3 requests
      try {
        // Counted twice, the third call would already pass the limit.
        for (let i = 0; i < 5; i++) expect((await callTool(mcp, 'list_approvals')).status).toBe(200);
      } finally {
        await mcp.close();
        await limited.close();
      }
    });

    it('off by default in tests: a burst with one token is served', async () => {
      const quiet = await startTestApp({ db });
      try {
        for (let i = 0; i < 20; i++) expect((await quiet.get('/ucp/v1/namespaces')).status).toBe(200);
      } finally {
        await quiet.close();
      }
    });
  });
}
