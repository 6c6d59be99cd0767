import { expectError } from '../support/envelope';
import { startTestApp, TestApp, TEST_TOKEN } from '../support/test-app';

// In three parts, each run on PostgreSQL by <part>.e2e-spec.ts and on the embedded database by
// <part>-embedded.e2e-spec.ts (one app per test: a file each stays under 20 s): wrong tokens on the two documents
// (rate-limit-every-route-documents), on /metrics (rate-limit-every-route-metrics), and a bucket spent on other routes
// (rate-limit-every-route-spent-bucket). The other cases are rate-limit.suite.ts
// (rate-limit.e2e-spec.ts and rate-limit-embedded.e2e-spec.ts).
const LIMIT = 5;
const METRICS_TOKEN = 'metrics-scraper-token-7d1e';
const from = (address: string) => ({ 'X-Forwarded-For': address });
/** The routes outside the API that a token opens; each has its own address in the wrong-token tests. */
const GUARDED = ['/ucp/v1/openapi.json', '/ucp/v1/events/asyncapi.json', '/metrics'] as const;

/**
 * Issue 37 item 2: every route counts, the documents and /metrics included, so no path is an oracle for a token while
 * the API answers 429. `tests` get the app of the test running.
 */
function everyRouteCounts(db: 'postgres' | 'embedded', part: string, tests: (app: () => TestApp) => void): void {
  describe(`every route counts toward the limit: ${part} (${db})`, () => {
    // One app per test: the operator's own bucket is small, and each test spends some of it.
    let t: TestApp;
    beforeEach(async () => {
      t = await startTestApp({
        db,
        env: { SERVICE_RATE_LIMIT: String(LIMIT), SERVICE_RATE_LIMIT_WINDOW_MS: '600000', SERVICE_TRUSTED_PROXIES: '127.0.0.1, ::1', SERVICE_METRICS_TOKEN: METRICS_TOKEN },
      });
    });
    afterEach(() => t?.close());
    tests(() => t);
  });
}

/** Wrong tokens on `paths` (of GUARDED) count against the address, and then close every route to it. */
function everyRouteWrongTokens(db: 'postgres' | 'embedded', paths: readonly (typeof GUARDED)[number][]): void {
  everyRouteCounts(db, `wrong tokens on ${paths.join(' and ')}`, (app) => {
    it.each(paths)('wrong tokens on %s count against the address; past the limit the right one is 429 there and everywhere', async (path) => {
      const t = app();
      const addr = `203.0.113.${60 + GUARDED.indexOf(path)}`;
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
  });
}

/** Wrong tokens on the two documents (the OpenAPI and the AsyncAPI one). */
export function everyRouteWrongTokensOnDocuments(db: 'postgres' | 'embedded'): void {
  everyRouteWrongTokens(db, ['/ucp/v1/openapi.json', '/ucp/v1/events/asyncapi.json']);
}

/** Wrong tokens on /metrics (its own token). */
export function everyRouteWrongTokensOnMetrics(db: 'postgres' | 'embedded'): void {
  everyRouteWrongTokens(db, ['/metrics']);
}

/** A bucket spent on other routes (the credential's on the API, the address's on unknown paths) closes the documents and the console too. */
export function everyRouteSpentBucket(db: 'postgres' | 'embedded'): void {
  everyRouteCounts(db, 'a bucket spent elsewhere', (app) => {
    it('the documents count against the credential: while the operator is over its limit they answer 429 too', async () => {
      const t = app();
      for (let i = 0; i < LIMIT; i++) expect((await t.get('/ucp/v1/fleet')).status).toBe(200);
      expectError(await t.get('/ucp/v1/fleet'), 429, 'rate_limited');
      expectError(await t.get('/ucp/v1/openapi.json'), 429, 'rate_limited');
      expectError(await t.get('/ucp/v1/events/asyncapi.json'), 429, 'rate_limited');
    });

    it('unknown paths and the console\'s files count too', async () => {
      const t = app();
      const addr = '203.0.113.70';
      for (let i = 0; i < LIMIT; i++) expect((await t.raw.get(`/nothing-here-${i}`).set(from(addr))).status).toBe(404);
      expectError(await t.raw.get('/console/').set(from(addr)), 429, 'rate_limited');
      expect((await t.raw.get('/healthz').set(from(addr))).status).toBe(200);
    });
  });
}
