import { expectError } from '../support/envelope';
import { startTestApp, TestApp, TEST_TOKEN } from '../support/test-app';
import { TestSocket, wsUrl } from './events-ws-client';

// Run on PostgreSQL by rate-limit.e2e-spec.ts (which also holds X-Forwarded-For from trusted proxies) and on the
// embedded database by rate-limit-embedded.e2e-spec.ts, so a file each stays under 20 s. Every route counting toward
// the limit (issue 37 item 2) is rate-limit-every-route.suite.ts; the limit across instances is
// rate-limit-instances.e2e-spec.ts.
export const LIMIT = 5;
export const from = (address: string) => ({ 'X-Forwarded-For': address });

/** JSON-RPC batch of `n` tools/list calls to the MCP endpoint, raw (the SDK client sends no batches). */
function mcpBatch(t: TestApp, n: number, address: string) {
  const batch = Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list', params: {} }));
  return t.raw
    .post('/ucp/mcp')
    .set('Authorization', `Bearer ${TEST_TOKEN}`)
    .set('Accept', 'application/json, text/event-stream')
    .set('Content-Type', 'application/json')
    .set(from(address))
    .send(JSON.stringify(batch));
}

/**
 * Issue 26 item 3: the limiter counts what an attacker sends. Each test works from its own client address, given by
 * X-Forwarded-For from the loopback proxy the deployment names in SERVICE_TRUSTED_PROXIES.
 */
export function attackerCountsSuite(db: 'postgres' | 'embedded'): void {
  describe(`the rate limit counts what an attacker sends (${db})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({
        db,
        env: { SERVICE_RATE_LIMIT: String(LIMIT), SERVICE_RATE_LIMIT_WINDOW_MS: '600000', SERVICE_RATE_LIMIT_SIGN_IN: '3', SERVICE_TRUSTED_PROXIES: '127.0.0.1, ::1' },
      });
    });
    afterAll(() => t?.close());

    it('a request that fails authentication counts against its address; past the limit even a right token from it is 429', async () => {
      const addr = '203.0.113.10';
      for (let i = 0; i < LIMIT; i++) expectError(await t.raw.get('/ucp/v1/approvals').set(from(addr)).set('Authorization', `Bearer guess-${i}`), 401, 'unauthorized');
      const over = await t.raw.get('/ucp/v1/approvals').set(from(addr)).set('Authorization', 'Bearer guess-x');
      expectError(over, 429, 'rate_limited');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expectError(await t.raw.get('/ucp/v1/approvals').set(from(addr)).set('Authorization', `Bearer ${TEST_TOKEN}`), 429, 'rate_limited');
      // Another address is not affected; the operator's own bucket is its own.
      expect((await t.raw.get('/ucp/v1/approvals').set(from('203.0.113.11')).set('Authorization', `Bearer ${TEST_TOKEN}`)).status).toBe(200);
    });

    it('a wrong WebSocket auth message counts against the address: past the limit the socket closes with 4429', async () => {
      const addr = '203.0.113.20';
      const codes: number[] = [];
      // Each socket costs two attempts (issue 37): opening it without a credential, then its wrong auth message. The two
      // counts of one socket race, so the socket that reaches the limit is the third, or the fourth (never the sixth).
      for (let i = 0; i <= LIMIT && !codes.includes(4429); i++) {
        const s = await TestSocket.open(wsUrl(t.url), from(addr));
        s.send({ type: 'auth', token: `guess-${i}` });
        codes.push((await s.waitClose()).code);
      }
      expect(codes.at(-1)).toBe(4429);
      expect(codes.slice(0, -1).every((c) => c === 4401)).toBe(true);
      expect(codes.length).toBeLessThanOrEqual(4);
      // The right token from that address is refused now as well; over HTTP the address is over its limit too.
      const right = await TestSocket.open(wsUrl(t.url), from(addr));
      right.send({ type: 'auth', token: TEST_TOKEN });
      expect((await right.waitClose()).code).toBe(4429);
      expectError(await t.raw.get('/.well-known/ucp').set(from(addr)), 429, 'rate_limited');
    });

    it('an MCP batch counts one per message (the operator\'s bucket), and a batch over 20 messages is refused', async () => {
      const own = await startTestApp({ db, env: { SERVICE_RATE_LIMIT: String(LIMIT), SERVICE_RATE_LIMIT_WINDOW_MS: '600000' } });
      try {
        // Refused before its messages are counted (its one request is: every request counts on arrival, issue 37).
        const huge = await mcpBatch(own, 21, '203.0.113.31');
        expect(huge.status).toBe(400);
        expect(huge.body.error.data.messages[0].code).toBe('request_too_large');
        const first = await mcpBatch(own, 2, '203.0.113.30');
        expect(first.status).toBe(200);
        expect(first.body).toHaveLength(2);
        const second = await mcpBatch(own, 3, '203.0.113.30'); // 1 + 2 + 3 = 6 units > 5
        expect(second.status).toBe(429);
        expect(second.body.error.data.messages[0].code).toBe('rate_limited');
      } finally {
        await own.close();
      }
    });

    it('/healthz and /readyz are never limited; anonymous discovery past the limit is', async () => {
      const addr = '203.0.113.40';
      for (let i = 0; i < LIMIT; i++) expect((await t.raw.get('/.well-known/ucp').set(from(addr))).status).toBe(200);
      expectError(await t.raw.get('/.well-known/ucp').set(from(addr)), 429, 'rate_limited');
      for (let i = 0; i < 3; i++) {
        expect((await t.raw.get('/healthz').set(from(addr))).status).toBe(200);
        expect((await t.raw.get('/readyz').set(from(addr))).status).toBe(200);
      }
    });

    it('sign-in has its own bucket: 3 attempts per address, the right token included; other reads from the address go on', async () => {
      const addr = '203.0.113.50';
      for (let i = 0; i < 3; i++) expectError(await t.raw.post('/ucp/v1/auth/session').set(from(addr)).send({ token: `guess-${i}` }), 401, 'unauthorized');
      expectError(await t.raw.post('/ucp/v1/auth/session').set(from(addr)).send({ token: TEST_TOKEN }), 429, 'rate_limited');
      expect((await t.raw.get('/.well-known/ucp').set(from(addr))).status).toBe(200);
    });
  });
}
