import { expectError } from '../support/envelope';
import { startTestApp, TestApp, TEST_TOKEN } from '../support/test-app';

// Run on PostgreSQL by rate-limit-every-route.e2e-spec.ts and on the embedded database by
// rate-limit-every-route-embedded.e2e-spec.ts (a file each stays under 20 s); the other cases are rate-limit.suite.ts
// and rate-limit.e2e-spec.ts.
const LIMIT = 5;
const from = (address: string) => ({ 'X-Forwarded-For': address });

/**
 * Issue 37 item 2: every route counts, the documents and /metrics included, so no path is an oracle for a token while
 * the API answers 429.
 */
export function everyRouteCounts(db: 'postgres' | 'embedded'): void {
  describe(`every route counts toward the limit (${db})`, () => {
    const METRICS_TOKEN = 'metrics-scraper-token-7d1e';
    // One app per test: the operator's own bucket is small, and each test spends some of it.
    let t: TestApp;
    beforeEach(async () => {
      t = await startTestApp({
        db,
        env: { SERVICE_RATE_LIMIT: String(LIMIT), SERVICE_RATE_LIMIT_WINDOW_MS: '600000', SERVICE_TRUSTED_PROXIES: '127.0.0.1, ::1', SERVICE_METRICS_TOKEN: METRICS_TOKEN },
      });
    });
    afterEach(() => t?.close());

    it.each(['/ucp/v1/openapi.json', '/ucp/v1/events/asyncapi.json', '/metrics'])('wrong tokens on %s count against the address; past the limit the right one is 429 there and everywhere', async (path) => {
      const addr = `203.0.113.${60 + ['/ucp/v1/openapi.json', '/ucp/v1/events/asyncapi.json', '/metrics'].indexOf(path)}`;
      for (let i = 0; i < LIMIT; i++) expect((await t.raw.get(path).set(from(addr)).set('Authorization', `Bearer guess-${i}`)).status).toBe(401);
      expectError(await t.raw.get(path).set(from(addr)).set('Authorization', 'Bearer guess-x'), 429, 'rate_limited');
      const right = path === '/metrics' ? METRICS_TOKEN : TEST_TOKEN;
      const refused = await t.raw.get(path).set(from(addr)).set('Authorization', `Bearer ${right}`);
      expectError(refused, 429, 'rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.headers['x-content-type-options']).toBe('nosniff'); // the security headers are set before the limit answers
      for (const other of ['/ucp/v1/openapi.json', '/ucp/v1/events/asyncapi.json']) expectError(await t.raw.get(other).set(from(addr)).set('Authorization', `Bearer ${TEST_TOKEN}`), 429, 'rate_limited');
      expectError(await t.raw.get('/metrics').set(from(addr)).set('Authorization', `Bearer ${METRICS_TOKEN}`), 429, 'rate_limited');
      // From another address the right tokens still open them.
      expect((await t.raw.get(path).set(from('203.0.113.69')).set('Authorization', `Bearer ${right}`)).status).toBe(200);
    });

    it('the documents count against the credential: while the operator is over its limit they answer 429 too', async () => {
      for (let i = 0; i < LIMIT; i++) expect((await t.get('/ucp/v1/fleet')).status).toBe(200);
      expectError(await t.get('/ucp/v1/fleet'), 429, 'rate_limited');
      expectError(await t.get('/ucp/v1/openapi.json'), 429, 'rate_limited');
      expectError(await t.get('/ucp/v1/events/asyncapi.json'), 429, 'rate_limited');
    });

    it('unknown paths and the console\'s files count too', async () => {
      const addr = '203.0.113.70';
      for (let i = 0; i < LIMIT; i++) expect((await t.raw.get(`/nothing-here-${i}`).set(from(addr))).status).toBe(404);
      expectError(await t.raw.get('/console/').set(from(addr)), 429, 'rate_limited');
      expect((await t.raw.get('/healthz').set(from(addr))).status).toBe(200);
    });
  });
}
