import { createVendingClient } from '../../clients/typescript/client';
import { runExample } from '../../clients/typescript/example';
import { startTestApp, TestApp } from '../support/test-app';

/** The committed typed client and its example (the 13 core operations) run against a staging service. */
describe('typed client example', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'embedded', env: { SERVICE_STAGING_SEED: 'on' } });
  }, 120_000);
  afterAll(() => t.close());

  it('chains the core operations and reads real answers', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const report = await runExample(createVendingClient(t.url, t.token));
    log.mockRestore();
    expect(report.supplyNamespace).toBe('sim-supply');
    expect(report.location).toMatch(/^sim-loc-/);
    expect(report.salesTotalFen).toBeGreaterThan(0);
    // The staging fleet always has slots below their order-up-to level, and the report carries the plan's own count.
    expect(report.planSlotsToOrder).toBeGreaterThan(0);
    const plan = await createVendingClient(t.url, t.token).GET('/ucp/v1/replenishment/plan', { params: { query: { location: report.location } } });
    expect(report.planSlotsToOrder).toBe(plan.data?.totals.slots_to_order);
    expect(report.sessionStatus).toBe('completed');
    expect(report.purchaseOrderId).toMatch(/\S/);
    expect(report.pricesChanged).toBe(1);
    expect(report.lastEventKinds).toEqual(expect.arrayContaining(['checkout.completed', 'price.changed']));
  });

  it('surfaces the error envelope of a refused call', async () => {
    const api = createVendingClient(t.url, 'wrong-token');
    const r = await api.GET('/ucp/v1/orders', { params: { query: { kind: 'sale' } } });
    expect(r.response.status).toBe(401);
    expect(r.error?.messages[0].code).toBe('unauthorized');
  });
});
