import { startTestApp, TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/**
 * The out-of-the-box staging service (`npm start` sets SERVICE_STAGING_SEED=on). That the seed does nothing without
 * the flag or in production is staging-seed-off.e2e-spec.ts (a file each stays under 20 s).
 */
describe('staging seed', () => {
  let t: TestApp;
  afterEach(() => t?.close());

  it('registers the simulated machines and syncs them when the roster is empty', async () => {
    t = await startTestApp({ db: 'embedded', env: { SERVICE_STAGING_SEED: 'on' } });
    const res = await t.post('/ucp/v1/locations/search', {});
    expect(res.status).toBe(200);
    expect(res.body.locations.length).toBeGreaterThanOrEqual(4);
    const loc = res.body.locations[0].id as string;
    const variants = await waitUntil(
      async () => {
        const r = await t.post('/ucp/v1/catalog/search', { filters: { namespace: 'sim-machine', location: loc } });
        return r.status === 200 && r.body.products.length > 0 ? r.body.products.map((x: { variants: unknown[] }) => x.variants[0]) : undefined;
      },
      { what: "the seeded machine's slots in the catalog", timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(variants[0].inventory.slot_id.startsWith(`${loc}-`)).toBe(true);
    const sales = await waitUntil(
      async () => {
        const r = await t.get('/ucp/v1/orders?kind=sale&limit=5');
        return r.status === 200 && r.body.orders.length > 0 ? r.body.orders : undefined;
      },
      { what: "the seeded machines' sales", timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(sales[0].kind).toBe('sale');
  });
});
