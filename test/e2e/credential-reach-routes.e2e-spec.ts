import { credentialReachRoutes, mountedRoutes } from './credential-reach.suite';
import { startTestApp } from '../support/test-app';

/**
 * Issue 37 item 5 (credential-reach.suite.ts), every route on PostgreSQL; the embedded database is
 * credential-reach-routes-embedded.e2e-spec.ts, the MCP tools credential-reach-tools[-embedded].e2e-spec.ts. Staging
 * still mounts the clock routes production does not.
 */
credentialReachRoutes('postgres');

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
