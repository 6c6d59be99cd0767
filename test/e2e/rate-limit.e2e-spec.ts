import { startTestApp } from '../support/test-app';
import { attackerCountsSuite, from, LIMIT } from './rate-limit.suite';

/** Issue 26 item 3 (rate-limit.suite.ts) on PostgreSQL; the embedded database is rate-limit-embedded.e2e-spec.ts. */
attackerCountsSuite('postgres');

describe('X-Forwarded-For is believed only from the proxies SERVICE_TRUSTED_PROXIES names', () => {
  it('without the setting, a fresh X-Forwarded-For per guess does not make a fresh bucket', async () => {
    const t = await startTestApp({ db: 'embedded', env: { SERVICE_RATE_LIMIT: String(LIMIT), SERVICE_RATE_LIMIT_WINDOW_MS: '600000' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i <= LIMIT; i++) statuses.push((await t.raw.get('/ucp/v1/namespaces').set(from(`198.51.100.${i}`)).set('Authorization', `Bearer guess-${i}`)).status);
      expect(statuses).toEqual([...Array(LIMIT).fill(401), 429]);
    } finally {
      await t.close();
    }
  });

  it('a named proxy\'s X-Forwarded-For is believed (one bucket per client behind it)', async () => {
    const t = await startTestApp({ db: 'embedded', env: { SERVICE_RATE_LIMIT: String(LIMIT), SERVICE_RATE_LIMIT_WINDOW_MS: '600000', SERVICE_TRUSTED_PROXIES: 'loopback' } });
    try {
      for (let i = 0; i <= LIMIT; i++) expect((await t.raw.get('/ucp/v1/namespaces').set(from(`198.51.100.${i}`)).set('Authorization', 'Bearer guess')).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
