import request from 'supertest';
import { expectError } from '../support/envelope';
import { startTestApp, TEST_TOKEN } from '../support/test-app';
import { TestSocket, wsUrl } from './events-ws-client';

// The rate limit's other cases are rate-limit.suite.ts, rate-limit.e2e-spec.ts and rate-limit-every-route.suite.ts.
const LIMIT = 5;
const from = (address: string) => ({ 'X-Forwarded-For': address });

describe('the limit holds across instances (three instances on one PostgreSQL database)', () => {
  it('requests spread over three instances share one bucket', async () => {
    const env = { SERVICE_RATE_LIMIT: '9', SERVICE_RATE_LIMIT_WINDOW_MS: '600000' };
    const a = await startTestApp({ env });
    const others = [await startTestApp({ databaseUrl: a.databaseUrl!, env }), await startTestApp({ databaseUrl: a.databaseUrl!, env })];
    const all = [a, ...others];
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await all[i % 3].get('/ucp/v1/namespaces')).status);
      expect(statuses).toEqual([...Array(9).fill(200), 429, 429, 429]);
      // Failed authentication too: 9 wrong guesses spread over the three, then every instance answers 429.
      const guesses: number[] = [];
      for (let i = 0; i < 12; i++) guesses.push((await request(all[i % 3].app.getHttpServer()).get('/ucp/v1/namespaces').set('Authorization', `Bearer g${i}`)).status);
      expect(guesses).toEqual([...Array(9).fill(401), 429, 429, 429]);
    } finally {
      for (const o of others) await o.close();
      await a.close();
    }
  });

  it('an address blocked on one instance is blocked on the others, the right token included (issue 37)', async () => {
    const env = { SERVICE_RATE_LIMIT: String(LIMIT), SERVICE_RATE_LIMIT_WINDOW_MS: '600000', SERVICE_TRUSTED_PROXIES: '127.0.0.1, ::1' };
    const a = await startTestApp({ env });
    const others = [await startTestApp({ databaseUrl: a.databaseUrl!, env })];
    try {
      const addr = '203.0.113.80';
      for (let i = 0; i <= LIMIT; i++) await a.raw.get('/ucp/v1/namespaces').set(from(addr)).set('Authorization', `Bearer guess-${i}`);
      expectError(await a.raw.get('/ucp/v1/namespaces').set(from(addr)).set('Authorization', `Bearer ${TEST_TOKEN}`), 429, 'rate_limited');
      // The other instance never saw this address over its limit itself: it reads the shared count.
      expectError(await others[0].raw.get('/ucp/v1/namespaces').set(from(addr)).set('Authorization', `Bearer ${TEST_TOKEN}`), 429, 'rate_limited');
      expectError(await others[0].raw.get('/ucp/v1/openapi.json').set(from(addr)).set('Authorization', `Bearer ${TEST_TOKEN}`), 429, 'rate_limited');
      const ws = await TestSocket.open(wsUrl(others[0].url), { ...from(addr), Authorization: `Bearer ${TEST_TOKEN}` });
      expect((await ws.waitClose()).code).toBe(4429);
      expect((await others[0].raw.get('/ucp/v1/namespaces').set(from('203.0.113.81')).set('Authorization', `Bearer ${TEST_TOKEN}`)).status).toBe(200);
    } finally {
      for (const o of others) await o.close();
      await a.close();
    }
  });
});
