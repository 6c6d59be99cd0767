import { startTestApp, TestApp } from '../support/test-app';
import { foundationSuite } from './foundation.suite';

/**
 * The foundation (foundation.suite.ts) on the embedded database, and the partner registry from SERVICE_HTTP_VENDORS;
 * PostgreSQL and failing closed without a token are foundation.e2e-spec.ts.
 */
foundationSuite('embedded');

describe('partner registry from SERVICE_HTTP_VENDORS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      db: 'embedded',
      env: {
        SERVICE_ENV: 'production',
        SERVICE_HTTP_VENDORS: JSON.stringify([
          { namespace: 'acme-machine', baseUrl: 'http://127.0.0.1:9', token: 'secret-partner-token', capabilities: ['inventory', 'ledger', 'pricing'] },
          { namespace: 'acme-supply', baseUrl: 'http://127.0.0.1:9', token: 'secret-partner-token', capabilities: ['catalog', 'orders'], status: 'planned' },
          { namespace: 'broken-machine', baseUrl: 'http://127.0.0.1:9', token: 'secret-partner-token', capabilities: ['inventory'] },
          { namespace: 'nonsense' },
        ]),
      },
    });
  });
  afterAll(() => t.close());

  it('lists registered namespaces only (no simulated partners in production), planned and malformed ones flagged', async () => {
    const res = await t.get('/ucp/v1/namespaces').expect(200);
    const byNs = Object.fromEntries(res.body.namespaces.map((n: { namespace: string }) => [n.namespace, n]));
    expect(Object.keys(byNs).sort()).toEqual(['acme-machine', 'acme-supply', 'broken-machine']);
    expect(byNs['acme-machine']).toEqual({
      namespace: 'acme-machine',
      vendor: 'acme',
      role: 'machine',
      status: 'live',
      capabilities: ['inventory', 'ledger', 'pricing'],
    });
    expect(byNs['acme-supply'].status).toBe('planned');
    expect(byNs['broken-machine'].status).toBe('planned');
    expect(res.body.defaults).toEqual({ machine: 'acme-machine' });
    const warn = res.body.messages.find((m: { code: string }) => m.code === 'namespace_misconfigured');
    expect(warn.content).toContain('broken-machine');
    expect(JSON.stringify(res.body)).not.toContain('secret-partner-token');
  });

  it('discovery reflects the registry at run time', async () => {
    const res = await t.get('/.well-known/ucp').expect(200);
    const ns = res.body.ucp.capabilities['com.example.svc.sku'][0].config.namespaces.map((n: { namespace: string }) => n.namespace);
    expect(ns).toEqual(expect.arrayContaining(['acme-machine', 'acme-supply']));
    expect(ns).not.toContain('sim-machine');
  });
});
