import { startTestApp, TestApp } from '../support/test-app';

/** The out-of-the-box staging service (`npm start` sets SERVICE_STAGING_SEED=on). */
describe('staging seed', () => {
  let t: TestApp;
  afterEach(() => t?.close());

  async function eventually<T>(fn: () => Promise<T | undefined>, ms = 20000): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (v !== undefined) return v;
      if (Date.now() > until) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('registers the simulated machines and syncs them when the roster is empty', async () => {
    t = await startTestApp({ db: 'embedded', env: { SERVICE_STAGING_SEED: 'on' } });
    const res = await t.post('/ucp/v1/locations/search', {});
    expect(res.status).toBe(200);
    expect(res.body.locations.length).toBeGreaterThanOrEqual(4);
    const loc = res.body.locations[0].id as string;
    const variants = await eventually(async () => {
      const r = await t.post('/ucp/v1/catalog/search', { filters: { namespace: 'sim-machine', location: loc } });
      return r.status === 200 && r.body.products.length > 0 ? r.body.products.map((x: { variants: unknown[] }) => x.variants[0]) : undefined;
    });
    expect(variants[0].inventory.slot_id.startsWith(`${loc}-`)).toBe(true);
    const sales = await eventually(async () => {
      const r = await t.get('/ucp/v1/orders?kind=sale&limit=5');
      return r.status === 200 && r.body.orders.length > 0 ? r.body.orders : undefined;
    });
    expect(sales[0].kind).toBe('sale');
  });

  it('does nothing without the flag, or in production', async () => {
    t = await startTestApp({ db: 'embedded' });
    expect((await t.post('/ucp/v1/locations/search', {}).expect(200)).body.locations).toEqual([]);
    await t.close();
    t = await startTestApp({ db: 'embedded', env: { SERVICE_STAGING_SEED: 'on', SERVICE_ENV: 'production' } });
    expect((await t.post('/ucp/v1/locations/search', {}).expect(200)).body.locations).toEqual([]);
  });
});
