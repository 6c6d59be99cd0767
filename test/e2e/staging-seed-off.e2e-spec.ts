import { startTestApp, TestApp } from '../support/test-app';

/** The staging seed (staging.e2e-spec.ts) stays off without SERVICE_STAGING_SEED, and in production even with it. */
describe('staging seed', () => {
  let t: TestApp;
  afterEach(() => t?.close());

  it('does nothing without the flag, or in production', async () => {
    t = await startTestApp({ db: 'embedded' });
    expect((await t.post('/ucp/v1/locations/search', {}).expect(200)).body.locations).toEqual([]);
    await t.close();
    t = await startTestApp({ db: 'embedded', env: { SERVICE_STAGING_SEED: 'on', SERVICE_ENV: 'production' } });
    expect((await t.post('/ucp/v1/locations/search', {}).expect(200)).body.locations).toEqual([]);
  });
});
