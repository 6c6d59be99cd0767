import { startTestApp } from '../support/test-app';
import { httpHardeningSuite } from './http-hardening.suite';

/**
 * Issue 17 item 5 (http-hardening.suite.ts), headers part, on the embedded database, and production links never coming
 * from the Host header; PostgreSQL is http-hardening.e2e-spec.ts, the embedded rate limit per credential is
 * http-hardening-rate-limit-embedded.e2e-spec.ts.
 */
httpHardeningSuite('embedded');

describe('production links never come from the Host header', () => {
  it('discovery, websocket_url and the OpenAPI servers use SERVICE_PUBLIC_URL whatever Host says', async () => {
    const t = await startTestApp({ db: 'embedded', env: { SERVICE_ENV: 'production', SERVICE_PUBLIC_URL: 'https://svc.example' } });
    try {
      const d = await t.raw.get('/.well-known/ucp').set('Host', 'evil.example');
      expect(JSON.stringify(d.body)).not.toContain('evil.example');
      expect(d.body.ucp.capabilities['com.example.svc.events'][0].config.websocket_url).toBe('wss://svc.example/ucp/v1/events/ws');
      const doc = await t.get('/ucp/v1/openapi.json').set('Host', 'evil.example');
      expect(doc.body.servers[0].url).toBe('https://svc.example');
    } finally {
      await t.close();
    }
  });
});
