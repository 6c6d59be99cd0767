import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 11 fuzz finding: a location registered here that the (healthy) machine platform does not know answered
 * 502 upstream_unreachable ("could not be reached") although the platform answered. It is 404 not_found, naming it.
 */
describe('live inventory of a location the platform does not know', () => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 't' });
    t = await startTestApp({
      env: {
        SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: 'acme-machine', baseUrl: p.url, token: 't', capabilities: ['inventory', 'ledger'] }]),
        SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine',
      },
    });
    p.state.inventory['m-1'] = [{ vendorSku: 'COLA', title: 'Cola', priceFen: 300, stock: 3 }];
    await t.put('/ucp/v1/locations/m-1', { name: 'Known' }).expect(200);
    await t.put('/ucp/v1/locations/m-typo', { name: 'Not at the platform' }).expect(200);
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });

  it('the platform answers 404 {ok:false} for it: 404 not_found at $.id, not a 5xx', async () => {
    const res = await t.get('/ucp/v1/locations/m-typo/inventory');
    expectError(res, 404, 'not_found');
    expect(res.body.messages[0].path).toBe('$.id');
    expect(res.body.messages[0].content).toMatch(/acme-machine/);
    expect((await t.get('/ucp/v1/locations/m-1/inventory')).status).toBe(200);
  });

  it('a platform that fails (5xx) is still 502 upstream_unreachable', async () => {
    p.fault('GET /inventory', { status: 503, times: 1 });
    expectError(await t.get('/ucp/v1/locations/m-1/inventory'), 502, 'upstream_unreachable');
  });
});
