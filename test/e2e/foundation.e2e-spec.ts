import { expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';
import { foundationSuite } from './foundation.suite';

/**
 * The foundation (foundation.suite.ts) on PostgreSQL, and failing closed without a token; the embedded database and the
 * partner registry from SERVICE_HTTP_VENDORS are foundation-embedded.e2e-spec.ts.
 */
foundationSuite('postgres');

describe('fail closed without a token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'embedded', env: { SERVICE_AUTH_TOKEN: '' } });
  });
  afterAll(() => t.close());

  it('answers 503 on every route but discovery and health', async () => {
    expectError(await t.raw.get('/ucp/v1/namespaces'), 503, 'auth_not_configured');
    expectError(await t.raw.get('/ucp/v1/events'), 503, 'auth_not_configured');
    expectError(await t.raw.get('/ucp/v1/openapi.json'), 503, 'auth_not_configured');
    await t.raw.get('/.well-known/ucp').expect(200);
    await t.raw.get('/healthz').expect(200);
  });
});
