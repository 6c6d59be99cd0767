import { credentialReachSuite, mountedRoutes } from './credential-reach.suite';
import { startTestApp } from '../support/test-app';

/** Issue 37 item 5 (credential-reach.suite.ts) on PostgreSQL; the embedded database is credential-reach-embedded.e2e-spec.ts. */
credentialReachSuite('postgres');

describe('staging still has its clock routes', () => {
  it('GET /ucp/v1/admin/clock answers in staging', async () => {
    const t = await startTestApp({ db: 'embedded' });
    try {
      expect((await t.get('/ucp/v1/admin/clock')).status).toBe(200);
      expect(mountedRoutes(t).some((r) => r.path === '/ucp/v1/admin/clock/advance')).toBe(true);
    } finally {
      await t.close();
    }
  });
});
