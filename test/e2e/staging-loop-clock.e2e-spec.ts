import { expectError } from '../support/envelope';
import { startTestApp } from '../support/test-app';

jest.setTimeout(180_000);

/**
 * The service clock outside a staging replay: production has no clock route, and staging on the machine clock cannot
 * move it. The staging replay that moves it (issue 25 item 5) is staging-loop.suite.ts, run by staging-loop.e2e-spec.ts
 * (PostgreSQL) and staging-loop-embedded.e2e-spec.ts.
 */
describe('the service clock outside a staging replay', () => {
  it('production has no clock route (issue 37): reading and advancing are the unknown route\'s 404, whatever the body', async () => {
    const t = await startTestApp({ db: 'embedded', env: { SERVICE_ENV: 'production' } });
    try {
      expectError(await t.get('/ucp/v1/admin/clock'), 404, 'not_found');
      expectError(await t.post('/ucp/v1/admin/clock/advance', { seconds: 86_400 }), 404, 'not_found');
      expectError(await t.post('/ucp/v1/admin/clock/advance', { seconds: 'soon' }), 404, 'not_found');
    } finally {
      await t.close();
    }
  });

  it('a staging service on the machine clock shows it; its advance is 404 and nothing moves', async () => {
    const t = await startTestApp({ db: 'embedded' });
    try {
      const before = (await t.get('/ucp/v1/admin/clock').expect(200)).body.clock;
      expect(before).toMatchObject({ adjustable: false, offset_seconds: 0 });
      expectError(await t.post('/ucp/v1/admin/clock/advance', { seconds: 86_400 }), 404, 'not_found');
      const after = (await t.get('/ucp/v1/admin/clock').expect(200)).body.clock;
      expect(Math.abs(Date.parse(after.now) - Date.now())).toBeLessThan(60_000);
    } finally {
      await t.close();
    }
  });
});
