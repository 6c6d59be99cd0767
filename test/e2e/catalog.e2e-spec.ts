import { SupplyCatalogService } from '../../src/supply-catalog/supply-catalog.service';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { expectEnvelope, expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';
import { ACME_CATALOG, advanceClock, registerLocation, seedSlots } from '../support/supply-fixtures';
import { waitUntil } from '../support/wait-until';

type V = Record<string, any>;
/** The variants of a catalog answer, product after product (UCP layout: `products[].variants[]`). */
const variantsOf = (p: { variants: V[] }): V[] => p.variants;
jest.setTimeout(60_000);

function vendors(acme: FakePartner, beta: FakePartner) {
  return JSON.stringify([
    { namespace: 'acme-supply', baseUrl: acme.url, token: acme.token, capabilities: ['catalog', 'orders'] },
    { namespace: 'acme-machine', baseUrl: acme.url, token: acme.token, capabilities: ['inventory', 'ledger'] },
    { namespace: 'beta-supply', baseUrl: beta.url, token: beta.token, capabilities: ['catalog', 'orders'] },
    { namespace: 'plan-supply', baseUrl: beta.url, token: beta.token, capabilities: ['catalog', 'orders'], status: 'planned' },
  ]);
}

describe('catalog search and lookup (supplier as a real HTTP server)', () => {
  let acme: FakePartner;
  let beta: FakePartner;
  let t: TestApp;

  beforeAll(async () => {
    acme = await startFakePartner({ token: 'acme-secret-token' });
    beta = await startFakePartner({ token: 'beta-secret-token' });
    acme.state.catalog = structuredClone(ACME_CATALOG);
    beta.state.catalog = [{ vendorSku: 'B1', title: 'Coke can 330ml', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 5, barcode: '6901234567892' }];
    t = await startTestApp({ env: { SERVICE_HTTP_VENDORS: vendors(acme, beta), SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine' } });
    await seedSlots(t, [
      { location: 'loc-1', namespace: 'acme-machine', vendorSku: 'A100', title: 'Coca-Cola can 330ml', barcode: '6901234567892', priceFen: 350, stock: 6, priceLocked: true },
      { location: 'loc-1', namespace: 'acme-machine', vendorSku: 'M9', title: 'Snickers peanut bar 51g', barcode: null, priceFen: 600, stock: 0 },
      { location: 'loc-2', namespace: 'acme-machine', vendorSku: 'A100', title: 'Coca-Cola can 330ml', barcode: '6901234567892', priceFen: 400, stock: 2 },
    ]);
    await registerLocation(t, 'other-loc', 'sim-machine');
  });
  afterAll(async () => {
    await t.close();
    await acme.close();
    await beta.close();
  });
  beforeEach(() => {
    acme.clearFaults();
    beta.clearFaults();
    t.app.get(SupplyCatalogService).invalidate();
  });

  const search = (body: unknown) => t.post('/ucp/v1/catalog/search', body);

  it('searches a supplier catalog by title word: each price, EA/BX sale units, barcode from spec, no cost', async () => {
    const res = await search({ query: 'water', filters: { namespace: 'acme-supply' } }).expect(200);
    expectEnvelope(res.body, 'success');
    expect(res.body.products).toEqual([expect.objectContaining({ id: 'acme-supply:A200', price_range: { min: { amount: 120, currency: 'CNY' }, max: { amount: 120, currency: 'CNY' } } })]);
    expect(res.body.products.flatMap(variantsOf)).toHaveLength(1);
    const v: V = res.body.products.flatMap(variantsOf)[0];
    expect(v).toMatchObject({ id: 'acme-supply:A200', sku: '6920000000019', price: { amount: 120, currency: 'CNY' }, quantity_unit: 'EA' });
    expect(v.sale_units).toEqual([
      { unit: 'EA', display_text: expect.any(String), increment: 12, price: { amount: 120, currency: 'CNY' }, price_derived: true },
      { unit: 'BX', display_text: 'box of 12', contains: 12, increment: 1, price: { amount: 1440, currency: 'CNY' }, price_derived: false },
    ]);
    const derived = res.body.messages.find((m: V) => m.code === 'price_derived');
    expect(derived).toMatchObject({ severity: 'warning', type: 'warning', path: '$.products[0].variants[0].price' });
    expect(JSON.stringify(res.body)).not.toMatch(/cost|margin/i);
  });

  it('searches by barcode, by word prefix, and by categories; a quoted box price gives no price_derived', async () => {
    const byBarcode = await search({ query: '6901234567892', filters: { namespace: 'acme-supply' } }).expect(200);
    expect(byBarcode.body.products.flatMap(variantsOf).map((v: V) => v.id)).toEqual(['acme-supply:A100']);
    const a100: V = byBarcode.body.products.flatMap(variantsOf)[0];
    expect(a100.price.amount).toBe(200);
    expect(a100.sale_units[0]).toMatchObject({ unit: 'EA', increment: 1, price_derived: false });
    expect(a100.sale_units[1]).toMatchObject({ unit: 'BX', contains: 24, price: { amount: 4560 } });
    expect(byBarcode.body.messages.filter((m: V) => m.code === 'price_derived')).toHaveLength(0);

    const prefix = await search({ query: 'mast TEA', filters: { namespace: 'acme-supply' } }).expect(200);
    expect(prefix.body.products.flatMap(variantsOf).map((v: V) => v.id)).toEqual(['acme-supply:A400', 'acme-supply:A500']);

    const cats = await search({ filters: { namespace: 'acme-supply', categories: ['potato chips', 'green tea'] } }).expect(200);
    expect(cats.body.products.flatMap(variantsOf).map((v: V) => v.id)).toEqual(['acme-supply:A300', 'acme-supply:A400']);
    const single: V = cats.body.products.flatMap(variantsOf)[0];
    expect(single.sale_units).toEqual([{ unit: 'EA', display_text: 'each', increment: 1, price: { amount: 450, currency: 'CNY' }, price_derived: false }]);
    expect(single.availability).toEqual({ available: false, stock: 0 });
  });

  it('paginates with an opaque cursor and refuses a cursor of another search', async () => {
    const p1 = await search({ filters: { namespace: 'acme-supply' }, pagination: { limit: 2 } }).expect(200);
    expect(p1.body.products.flatMap(variantsOf).map((v: V) => v.id)).toEqual(['acme-supply:A100', 'acme-supply:A200']);
    expect(p1.body.pagination).toMatchObject({ has_next_page: true, total_count: 5 });
    const p2 = await search({ filters: { namespace: 'acme-supply' }, pagination: { limit: 2, cursor: p1.body.pagination.cursor } }).expect(200);
    expect(p2.body.products.flatMap(variantsOf).map((v: V) => v.id)).toEqual(['acme-supply:A300', 'acme-supply:A400']);
    const p3 = await search({ filters: { namespace: 'acme-supply' }, pagination: { limit: 2, cursor: p2.body.pagination.cursor } }).expect(200);
    expect(p3.body.products.flatMap(variantsOf).map((v: V) => v.id)).toEqual(['acme-supply:A500']);
    expect(p3.body.pagination.has_next_page).toBe(false);
    expect(p3.body.pagination.cursor).toBeUndefined();
    expectError(await search({ query: 'tea', filters: { namespace: 'acme-supply' }, pagination: { cursor: p1.body.pagination.cursor } }), 400, 'invalid');
    expectError(await search({ filters: { namespace: 'acme-supply' }, pagination: { cursor: 'garbage' } }), 400, 'invalid');
    expectError(await search({ filters: { namespace: 'acme-supply' }, pagination: { limit: 101 } }), 400, 'invalid');
  });

  it('serves searches from the cached catalog, and shows a supplier change once the minute is over', async () => {
    const before = acme.requestsTo('GET /catalog').length;
    await search({ query: 'cola', filters: { namespace: 'acme-supply' } }).expect(200);
    await search({ query: 'water', filters: { namespace: 'acme-supply' } }).expect(200);
    await t.post('/ucp/v1/catalog/lookup', { ids: ['acme-supply:A100'] }).expect(200);
    expect(acme.requestsTo('GET /catalog').length).toBe(before + 1);
    acme.state.catalog = [...structuredClone(ACME_CATALOG), { vendorSku: 'A600', title: 'Sprite can 330ml', packSize: 24, packPriceFen: 4560, eachPriceFen: 200, stock: 3 }];
    expect((await search({ query: 'sprite', filters: { namespace: 'acme-supply' } }).expect(200)).body.products.flatMap(variantsOf)).toHaveLength(0);
    const restore = advanceClock(61_000);
    try {
      const after = await search({ query: 'sprite', filters: { namespace: 'acme-supply' } }).expect(200);
      expect(after.body.products.flatMap(variantsOf).map((v: V) => v.id)).toEqual(['acme-supply:A600']);
    } finally {
      restore();
      acme.state.catalog = structuredClone(ACME_CATALOG);
    }
  });

  const waitForRefresh = async () => {
    const catalogs = t.app.get(SupplyCatalogService);
    await waitUntil(() => !catalogs.refreshing('acme-supply'), { what: 'the acme-supply catalog refresh to end', intervalMs: 20 });
  };

  it('refreshes ahead of expiry in the background: a read at 50 s answers from the current copy at once', async () => {
    await search({ query: 'cola', filters: { namespace: 'acme-supply' } }).expect(200);
    const before = acme.requestsTo('GET /catalog').length;
    acme.state.catalog = [...structuredClone(ACME_CATALOG), { vendorSku: 'A600', title: 'Sprite can 330ml', packSize: 24, packPriceFen: 4560, eachPriceFen: 200, stock: 3 }];
    acme.fault('GET /catalog', { delayMs: 1500, times: 1 });
    const restore = advanceClock(50_000);
    try {
      const t0 = performance.now();
      const during = await search({ query: 'sprite', filters: { namespace: 'acme-supply' } }).expect(200);
      // Did not wait for the 1.5 s GET /catalog: answered under that (and from the old copy, below).
      expect(performance.now() - t0).toBeLessThan(1500);
      expect(during.body.products.flatMap(variantsOf)).toHaveLength(0);
      await search({ query: 'cola', filters: { namespace: 'acme-supply' } }).expect(200);
      await waitForRefresh();
      expect(acme.requestsTo('GET /catalog').length).toBe(before + 1); // one refresh for all the readers
      const after = await search({ query: 'sprite', filters: { namespace: 'acme-supply' } }).expect(200);
      expect(after.body.products.flatMap(variantsOf).map((v: V) => v.id)).toEqual(['acme-supply:A600']);
    } finally {
      restore();
      acme.state.catalog = structuredClone(ACME_CATALOG);
    }
  });

  it('keeps serving the copy when a background refresh fails, until its minute is over, then 502', async () => {
    await search({ query: 'cola', filters: { namespace: 'acme-supply' } }).expect(200);
    acme.fault('GET /catalog', { status: 500 });
    let restore = advanceClock(50_000);
    try {
      await search({ query: 'cola', filters: { namespace: 'acme-supply' } }).expect(200);
      await waitForRefresh();
      const still = await search({ query: 'cola', filters: { namespace: 'acme-supply' } }).expect(200);
      expect(still.body.products.flatMap(variantsOf).map((v: V) => v.id)).toEqual(['acme-supply:A100']);
    } finally {
      restore();
    }
    restore = advanceClock(61_000);
    try {
      expectError(await search({ query: 'cola', filters: { namespace: 'acme-supply' } }), 502, 'upstream_unreachable');
    } finally {
      restore();
    }
  });

  it('surfaces a supplier failure as 502, never as an empty list, and never serves an expired copy', async () => {
    acme.fault('GET /catalog', { status: 500 });
    expectError(await search({ query: 'cola', filters: { namespace: 'acme-supply' } }), 502, 'upstream_unreachable');
    acme.clearFaults();
    await search({ query: 'cola', filters: { namespace: 'acme-supply' } }).expect(200);
    acme.fault('GET /catalog', { destroy: true });
    const restore = advanceClock(61_000);
    try {
      expectError(await search({ query: 'cola', filters: { namespace: 'acme-supply' } }), 502, 'upstream_unreachable');
    } finally {
      restore();
    }
    acme.fault('GET /catalog', { rawBody: '{"products": "nope"}' });
    expectError(await search({ filters: { namespace: 'acme-supply' } }), 502, 'upstream_unreachable');
  });

  it('validates the request: body, namespace, planned and unregistered namespaces', async () => {
    expectError(await search({}), 400, 'missing');
    expectError(await search({ filters: {} }), 400, 'missing');
    expectError(await search({ filters: { namespace: 'acme' } }), 400, 'invalid');
    expectError(await search({ filters: { namespace: 'nobody-supply' } }), 400, 'namespace_unsupported');
    expectError(await search({ filters: { namespace: 'plan-supply' } }), 400, 'namespace_unsupported');
    expectError(await search({ query: 5, filters: { namespace: 'acme-supply' } }), 400, 'invalid');
  });

  it('searches a machine namespace from the synced slots; location is required and must be that namespace', async () => {
    const res = await search({ filters: { namespace: 'acme-machine', location: 'loc-1' } }).expect(200);
    expect(res.body.products.flatMap(variantsOf)).toEqual([
      {
        id: 'acme-machine:A100',
        title: 'Coca-Cola can 330ml',
        description: { plain: 'Coca-Cola can 330ml' }, // UCP requires one; the platform gives none, so it is the title
        sku: '6901234567892',
        price: { amount: 350, currency: 'CNY' },
        quantity_unit: 'EA',
        inventory: { stock: 6, slot_id: 'loc-1-A100', locked: true },
        location: 'loc-1',
      },
      expect.objectContaining({ id: 'acme-machine:M9', inventory: { stock: 0, slot_id: 'loc-1-M9', locked: false } }),
    ]);
    expect(res.body.products.flatMap(variantsOf)[0].sale_units).toBeUndefined();
    expect(res.body.products.flatMap(variantsOf)[1]).not.toHaveProperty('sku'); // no barcode: absent, never null (UCP)
    const q = await search({ query: 'peanut', filters: { namespace: 'acme-machine', location: 'loc-1' } }).expect(200);
    expect(q.body.products.flatMap(variantsOf).map((v: V) => v.id)).toEqual(['acme-machine:M9']);
    const byBarcode = await search({ query: '6901234567892', filters: { namespace: 'acme-machine', location: 'loc-2' } }).expect(200);
    expect(byBarcode.body.products.flatMap(variantsOf).map((v: V) => v.inventory.slot_id)).toEqual(['loc-2-A100']);
    const missing = await search({ filters: { namespace: 'acme-machine' } });
    expectError(missing, 400, 'missing');
    expect(missing.body.messages[0].path).toBe('$.filters.location');
    expectError(await search({ filters: { namespace: 'acme-machine', location: 'bad id!' } }), 400, 'invalid');
    expectError(await search({ filters: { namespace: 'acme-machine', location: 'nowhere' } }), 404, 'not_found');
    expectError(await search({ filters: { namespace: 'acme-machine', location: 'other-loc' } }), 400, 'namespace_mismatch');
  });

  describe('lookup', () => {
    const lookup = (body: unknown) => t.post('/ucp/v1/catalog/lookup', body);

    it('answers ids across namespaces with aliases[] and inputs[], and reports unknown ids', async () => {
      const res = await lookup({ ids: ['acme-supply:A100', 'acme-machine:A100', 'beta-supply:B1', 'acme-supply:NOPE', 'acme-machine:NOPE', 'acme-supply:A100'] }).expect(200);
      expectEnvelope(res.body, 'success');
      const ids = res.body.products.flatMap(variantsOf).map((v: V) => `${v.id}@${v.location ?? ''}`);
      expect(ids).toEqual(['acme-supply:A100@', 'acme-machine:A100@loc-1', 'acme-machine:A100@loc-2', 'beta-supply:B1@']);
      // UCP layout: one product per good (sku_id); the machine good has one variant per slot holding it.
      expect(res.body.products.map((p: V) => [p.id, p.variants.length])).toEqual([['acme-supply:A100', 1], ['acme-machine:A100', 2], ['beta-supply:B1', 1]]);
      expect(res.body.products[1]).toMatchObject({ title: 'Coca-Cola can 330ml', description: { plain: 'Coca-Cola can 330ml' }, price_range: { min: { amount: 350, currency: 'CNY' }, max: { amount: 400, currency: 'CNY' } } });
      expect(res.body.variants).toBeUndefined();
      for (const v of res.body.products.flatMap(variantsOf)) {
        expect(Array.isArray(v.aliases)).toBe(true);
        expect(v.inputs).toEqual([{ id: v.id, match: 'exact' }]);
      }
      const supplyA100: V = res.body.products.flatMap(variantsOf)[0];
      expect(supplyA100.sale_units.map((u: V) => u.unit)).toEqual(['EA', 'BX']);
      // Same EAN on the machine slot and at the other supplier: barcode aliases, found automatically.
      expect(supplyA100.aliases).toEqual(expect.arrayContaining([
        { sku_id: 'acme-machine:A100', source: 'barcode', confirmed_at: expect.stringMatching(/\+08:00$/) },
        { sku_id: 'beta-supply:B1', source: 'barcode', confirmed_at: expect.stringMatching(/\+08:00$/) },
      ]));
      const machineA100: V = res.body.products.flatMap(variantsOf)[1];
      expect(machineA100.inventory).toEqual({ stock: 6, slot_id: 'loc-1-A100', locked: true });
      expect(machineA100.aliases.map((a: V) => a.sku_id)).toEqual(expect.arrayContaining(['acme-supply:A100', 'beta-supply:B1']));
      const notFound = res.body.messages.filter((m: V) => m.code === 'not_found').map((m: V) => m.path);
      expect(notFound).toEqual(['$.ids[3]', '$.ids[4]']);
      expect(JSON.stringify(res.body)).not.toMatch(/cost/i);
    });

    it('narrows machine ids to filters.location', async () => {
      const res = await lookup({ ids: ['acme-machine:A100'], filters: { location: 'loc-2' } }).expect(200);
      expect(res.body.products.flatMap(variantsOf).map((v: V) => v.inventory.slot_id)).toEqual(['loc-2-A100']);
    });

    it('takes at most 50 ids and validates each id and namespace', async () => {
      const fifty = Array.from({ length: 50 }, (_, i) => `acme-supply:X${i}`);
      await lookup({ ids: fifty }).expect(200);
      const r51 = await lookup({ ids: [...fifty, 'acme-supply:X50'] });
      expectError(r51, 400, 'invalid');
      expect(r51.body.messages[0].path).toBe('$.ids');
      expectError(await lookup({}), 400, 'missing');
      expectError(await lookup({ ids: [] }), 400, 'invalid');
      const bad = await lookup({ ids: ['acme-supply:A100', 'acme-supply:has space'] });
      expectError(bad, 400, 'invalid');
      expect(bad.body.messages[0].path).toBe('$.ids[1]');
      expectError(await lookup({ ids: ['acme:A100'] }), 400, 'invalid');
      expectError(await lookup({ ids: ['plan-supply:A1'] }), 400, 'namespace_unsupported');
      expectError(await lookup({ ids: ['zzz-machine:A1'] }), 400, 'namespace_unsupported');
    });

    it('reports an unreachable catalog for its ids and still answers the others', async () => {
      beta.fault('GET /catalog', { status: 503 });
      const res = await lookup({ ids: ['beta-supply:B1', 'acme-supply:A300'] }).expect(200);
      expect(res.body.products.flatMap(variantsOf).map((v: V) => v.id)).toEqual(['acme-supply:A300']);
      const m = res.body.messages.find((x: V) => x.code === 'upstream_unreachable' && x.path === '$.ids[0]');
      expect(m.content).toContain('beta-supply');
      expect(JSON.stringify(res.body)).not.toContain('beta-secret-token');
    });

    it('answers 502 when the only catalog asked is unreachable', async () => {
      acme.fault('GET /catalog', { delayMs: 50, status: 502 });
      expectError(await lookup({ ids: ['acme-supply:A100', 'acme-supply:A200'] }), 502, 'upstream_unreachable');
    });
  });

  it('never writes a partner token to the log or a partner URL', async () => {
    await search({ query: 'cola', filters: { namespace: 'acme-supply' } }).expect(200);
    expect(t.logs.join('\n')).not.toContain('acme-secret-token');
    for (const r of acme.requests) expect(r.path + JSON.stringify(r.query)).not.toContain('acme-secret-token');
    expect(acme.requestsTo('GET /catalog').every((r) => r.headers.authorization === 'Bearer acme-secret-token')).toBe(true);
  });
});

describe('catalog on the embedded database with the simulated supplier', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'embedded' });
  });
  afterAll(() => t.close());

  it('searches sim-supply, pages through it, and looks its variants up with aliases', async () => {
    const all = await t.post('/ucp/v1/catalog/search', { filters: { namespace: 'sim-supply' }, pagination: { limit: 100 } }).expect(200);
    expect(all.body.products.flatMap(variantsOf).length).toBeGreaterThan(20);
    for (const v of all.body.products.flatMap(variantsOf)) {
      expect(v.quantity_unit).toBe('EA');
      expect(v.sale_units[0].unit).toBe('EA');
      expect(v.price).toEqual(v.sale_units[0].price);
    }
    const derived = all.body.products.flatMap(variantsOf).filter((v: V) => v.sale_units[0].price_derived);
    expect(derived.length).toBeGreaterThan(0);
    expect(all.body.messages.filter((m: V) => m.code === 'price_derived')).toHaveLength(derived.length);
    expect(JSON.stringify(all.body)).not.toMatch(/cost/i);
    const cola = await t.post('/ucp/v1/catalog/search', { query: 'coca cola', filters: { namespace: 'sim-supply' } }).expect(200);
    expect(cola.body.products.flatMap(variantsOf)).toHaveLength(1);
    const id = cola.body.products.flatMap(variantsOf)[0].id as string;
    const look = await t.post('/ucp/v1/catalog/lookup', { ids: [id] }).expect(200);
    // sim declares one id space for both roles: the vendor alias is implied, never confirmed.
    expect(look.body.products.flatMap(variantsOf)[0].aliases).toContainEqual({ sku_id: id.replace('sim-supply', 'sim-machine'), source: 'vendor', confirmed_at: null });
    expect(look.body.products.flatMap(variantsOf)[0].inputs).toEqual([{ id, match: 'exact' }]);
  });
});
