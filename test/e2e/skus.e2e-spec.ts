import { DataSource } from 'typeorm';
import { SupplyCatalogService } from '../../src/supply-catalog/supply-catalog.service';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { expectEnvelope, expectError } from '../support/envelope';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';
import { ACME_CATALOG, advanceClock, seedSlots } from '../support/supply-fixtures';

type V = Record<string, any>;
jest.setTimeout(60_000);
const enc = encodeURIComponent;

describe.each(BOTH_DATABASES)('SKU registry and the seven alias rules (%s database)', (db) => {
  let acme: FakePartner;
  let beta: FakePartner;
  let t: TestApp;

  beforeAll(async () => {
    acme = await startFakePartner({ token: 'acme-secret-token' });
    beta = await startFakePartner({ token: 'beta-secret-token' });
    acme.state.catalog = structuredClone(ACME_CATALOG);
    beta.state.catalog = [
      { vendorSku: 'B1', title: 'Coke can 330ml', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 5, barcode: '6901234567892' },
      { vendorSku: 'B2', title: 'Snickers peanut bar 51g', packSize: 24, packPriceFen: 7200, eachPriceFen: 300, stock: 5, barcode: '6999999999999' },
    ];
    const vendors = [
      // acme declares one product id space for its two namespaces: the vendor alias is implied.
      { namespace: 'acme-supply', baseUrl: acme.url, token: acme.token, capabilities: ['catalog', 'orders'], sharedIdSpace: true },
      { namespace: 'acme-machine', baseUrl: acme.url, token: acme.token, capabilities: ['inventory', 'ledger'], sharedIdSpace: true },
      { namespace: 'beta-supply', baseUrl: beta.url, token: beta.token, capabilities: ['catalog', 'orders'] },
    ];
    t = await startTestApp({ db, env: { SERVICE_HTTP_VENDORS: JSON.stringify(vendors), SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine' } });
    await seedSlots(t, [
      { location: 'loc-1', namespace: 'acme-machine', vendorSku: 'A100', title: 'Coca-Cola can 330ml', barcode: '6901234567892', priceFen: 350, stock: 6 },
      { location: 'loc-2', namespace: 'acme-machine', vendorSku: 'A100', title: 'Coca-Cola can 330ml', barcode: '6901234567892', priceFen: 400, stock: 2 },
      { location: 'loc-1', namespace: 'acme-machine', vendorSku: 'M9', title: 'Snickers peanut bar 51g', barcode: null, priceFen: 600, stock: 3 },
      { location: 'loc-1', namespace: 'acme-machine', vendorSku: 'A400', title: 'Master Kong green tea 500ml', barcode: null, priceFen: 350, stock: 3 },
    ]);
  });
  afterAll(async () => {
    await t.close();
    await acme.close();
    await beta.close();
  });
  beforeEach(() => {
    acme.clearFaults();
    beta.clearFaults();
    acme.state.catalog = structuredClone(ACME_CATALOG);
    t.app.get(SupplyCatalogService).invalidate();
  });

  const getSku = (id: string, q = '') => t.get(`/ucp/v1/skus/${enc(id)}${q}`);
  const putAliases = (id: string, aliases: unknown) => t.put(`/ucp/v1/skus/${enc(id)}/aliases`, { aliases });
  const aliasOf = (body: V, id: string) => body.aliases.find((a: V) => a.sku_id === id);

  it('reads a machine sku: barcodes, barcode aliases across catalogs, the implied vendor alias, purchasable_from', async () => {
    const res = await getSku('acme-machine:A100').expect(200);
    expectEnvelope(res.body, 'success');
    expect(res.body).toMatchObject({ id: 'acme-machine:A100', namespace: 'acme-machine', role: 'machine', vendor_sku: 'A100', title: 'Coca-Cola can 330ml' });
    expect(res.body.barcodes).toEqual([{ type: 'ean13', value: '6901234567892' }]);
    expect(res.body.slots.map((s: V) => s.slot_id)).toEqual(['loc-1-A100', 'loc-2-A100']);
    // Barcode alias wins over the implied vendor alias for the same sku_id (computed precedence), one entry per id.
    expect(res.body.aliases.filter((a: V) => a.sku_id === 'acme-supply:A100')).toHaveLength(1);
    expect(aliasOf(res.body, 'beta-supply:B1')).toMatchObject({ source: 'barcode', confirmed_at: expect.stringMatching(/\+08:00$/) });
    expect(res.body.purchasable_from.map((p: V) => `${p.id}/${p.via}`).sort()).toEqual(['acme-supply:A100/barcode', 'beta-supply:B1/barcode']);
    const p = res.body.purchasable_from.find((x: V) => x.id === 'acme-supply:A100');
    expect(p.sale_units.map((u: V) => u.unit)).toEqual(['EA', 'BX']);
    expect(JSON.stringify(res.body)).not.toMatch(/cost/i);
  });

  it('rule 2: the vendor alias is implied on every read, never stored, with confirmed_at null', async () => {
    const res = await getSku('acme-machine:A400').expect(200);
    expect(aliasOf(res.body, 'acme-supply:A400')).toEqual({ sku_id: 'acme-supply:A400', source: 'vendor', confirmed_at: null });
    expect(res.body.purchasable_from.map((x: V) => x.id)).toEqual(['acme-supply:A400']);
    const back = await getSku('acme-supply:A400').expect(200);
    expect(aliasOf(back.body, 'acme-machine:A400')).toEqual({ sku_id: 'acme-machine:A400', source: 'vendor', confirmed_at: null });
    expect(back.body.purchasable_from.map((x: V) => `${x.id}/${x.via}`)).toEqual(['acme-supply:A400/self']);
  });

  it('offers suggested aliases by name similarity, never used to order', async () => {
    const res = await getSku('acme-machine:M9').expect(200);
    expect(aliasOf(res.body, 'beta-supply:B2')).toEqual({ sku_id: 'beta-supply:B2', source: 'suggested', confirmed_at: null });
    expect(res.body.purchasable_from.map((x: V) => x.id)).not.toContain('beta-supply:B2');
    // And the other way: the supply sku is offered the machine sku of a similar name.
    const back = await getSku('beta-supply:B2').expect(200);
    expect(aliasOf(back.body, 'acme-machine:M9')).toEqual({ sku_id: 'acme-machine:M9', source: 'suggested', confirmed_at: null });
  });

  it('sees a change of the synced slots on the next read (barcode and suggested aliases of supply skus)', async () => {
    expect(aliasOf((await getSku('beta-supply:B2').expect(200)).body, 'acme-machine:M10')).toBeUndefined();
    await seedSlots(t, [{ location: 'loc-3', namespace: 'acme-machine', vendorSku: 'M10', title: 'Mars bar 51g', barcode: '6999999999999', priceFen: 600, stock: 1 }]);
    try {
      const res = await getSku('beta-supply:B2').expect(200);
      expect(aliasOf(res.body, 'acme-machine:M10')).toMatchObject({ source: 'barcode' });
    } finally {
      await t.app.get(DataSource).query(`DELETE FROM slots WHERE location_id = 'loc-3'`);
      await t.app.get(DataSource).query(`DELETE FROM locations WHERE id = 'loc-3'`);
    }
    expect(aliasOf((await getSku('beta-supply:B2').expect(200)).body, 'acme-machine:M10')).toBeUndefined();
  });

  it('rules 1, 3, 4: PUT with source vendor is stored as manual, symmetric, and wins over the implied alias', async () => {
    const put = await putAliases('acme-machine:M9', [{ sku_id: 'beta-supply:B2', source: 'vendor' }, { sku_id: 'acme-supply:A300' }]).expect(200);
    expectEnvelope(put.body, 'success');
    expect(aliasOf(put.body, 'beta-supply:B2')).toEqual({ sku_id: 'beta-supply:B2', source: 'manual', confirmed_at: expect.stringMatching(/\+08:00$/) });
    expect(put.body.purchasable_from.map((x: V) => x.id).sort()).toEqual(['acme-supply:A300', 'beta-supply:B2']);
    // Symmetric: the supply side sees the machine sku as a manual alias.
    const other = await getSku('beta-supply:B2').expect(200);
    expect(aliasOf(other.body, 'acme-machine:M9')).toMatchObject({ source: 'manual' });
    // Stored wins over implied: acme-machine:A400 -> acme-supply:A400 stored manual replaces the vendor alias.
    const a400 = await putAliases('acme-machine:A400', [{ sku_id: 'acme-supply:A400', source: 'vendor' }]).expect(200);
    const entries = a400.body.aliases.filter((a: V) => a.sku_id === 'acme-supply:A400');
    expect(entries).toEqual([{ sku_id: 'acme-supply:A400', source: 'manual', confirmed_at: expect.any(String) }]);
    // PUT replaces the stored set: an empty list removes the stored pair, the implied one comes back.
    const cleared = await putAliases('acme-machine:A400', []).expect(200);
    expect(aliasOf(cleared.body, 'acme-supply:A400')).toEqual({ sku_id: 'acme-supply:A400', source: 'vendor', confirmed_at: null });
    const events = await t.get('/ucp/v1/events?kind=sku.aliases_changed').expect(200);
    expect(events.body.events.length).toBeGreaterThanOrEqual(3);
  });

  it('rule 5 and 6: a mapping the supplier dropped stays with unresolved_sku and leaves purchasable_from', async () => {
    await putAliases('acme-machine:M9', [{ sku_id: 'acme-supply:A300', source: 'manual' }]).expect(200);
    acme.state.catalog = ACME_CATALOG.filter((p) => p.vendorSku !== 'A300');
    const restore = advanceClock(61_000);
    try {
      const res = await getSku('acme-machine:M9').expect(200);
      const i = res.body.aliases.findIndex((a: V) => a.sku_id === 'acme-supply:A300');
      expect(res.body.aliases[i]).toMatchObject({ source: 'manual' });
      const w = res.body.messages.find((m: V) => m.code === 'unresolved_sku');
      expect(w).toMatchObject({ severity: 'warning', path: `$.aliases[${i}]` });
      expect(res.body.purchasable_from.map((x: V) => x.id)).not.toContain('acme-supply:A300');
      // A dropped supply sku with stored aliases is still a registry entry, with the warning.
      const dropped = await getSku('acme-supply:A300').expect(200);
      expect(dropped.body.messages.map((m: V) => m.code)).toContain('unresolved_sku');
      expect(aliasOf(dropped.body, 'acme-machine:M9')).toMatchObject({ source: 'manual' });
    } finally {
      restore();
    }
  });

  it('rule 5: a product that cannot be priced is not purchasable', async () => {
    acme.state.catalog = ACME_CATALOG.map((p) => (p.vendorSku === 'A400' ? { ...p, eachPriceFen: 0, packPriceFen: 0 } : p));
    const res = await getSku('acme-machine:A400').expect(200);
    expect(aliasOf(res.body, 'acme-supply:A400')).toBeDefined();
    expect(res.body.purchasable_from).toEqual([]);
  });

  it('rule 7: an unreachable catalog keeps the entry and the warning says why', async () => {
    await putAliases('acme-machine:M9', [{ sku_id: 'acme-supply:A300' }]).expect(200);
    acme.fault('GET /catalog', { status: 503, body: { ok: false, reason: 'maintenance window' } });
    t.app.get(SupplyCatalogService).invalidate();
    const res = await getSku('acme-machine:M9').expect(200);
    const i = res.body.aliases.findIndex((a: V) => a.sku_id === 'acme-supply:A300');
    expect(i).toBeGreaterThanOrEqual(0);
    const w = res.body.messages.find((m: V) => m.code === 'unresolved_sku' && m.path === `$.aliases[${i}]`);
    expect(w.content).toMatch(/could not be reached/);
    expect(w.content).toContain('maintenance window');
    expect(res.body.messages.some((m: V) => m.code === 'upstream_unreachable' && m.content.includes('acme-supply'))).toBe(true);
    expect(res.body.purchasable_from.map((x: V) => x.id)).not.toContain('acme-supply:A300');
    const supplySide = await getSku('acme-supply:A100').expect(200);
    expect(supplySide.body.messages.map((m: V) => m.code)).toContain('upstream_unreachable');
  });

  it('narrows a machine sku to a location, and answers 404 for an unknown sku or location', async () => {
    const res = await getSku('acme-machine:A100', '?location=loc-2').expect(200);
    expect(res.body.slots).toEqual([{ slot_id: 'loc-2-A100', location: 'loc-2', stock: 2, price: { amount: 400, currency: 'CNY' }, locked: false }]);
    expectError(await getSku('acme-machine:A100', '?location=loc-9'), 404, 'not_found');
    expectError(await getSku('acme-machine:NOPE'), 404, 'not_found');
    expectError(await getSku('acme-supply:NOPE'), 404, 'not_found');
    expectError(await putAliases('acme-supply:NOPE', [{ sku_id: 'acme-machine:A100' }]), 404, 'not_found');
  });

  it('validates ids, namespaces and alias sources', async () => {
    expectError(await getSku('not-an-id'), 400, 'invalid');
    expectError(await getSku('zzz-supply:X'), 400, 'namespace_unsupported');
    expectError(await putAliases('acme-machine:A100', [{ sku_id: 'acme-machine:M9' }]), 400, 'invalid');
    expectError(await putAliases('acme-machine:A100', [{ sku_id: 'acme-machine:A100' }]), 400, 'invalid');
    expectError(await putAliases('acme-machine:A100', [{ sku_id: 'beta-supply:B1', source: 'suggested' }]), 400, 'invalid');
    expectError(await putAliases('acme-machine:A100', [{ sku_id: 'beta-supply:B1', source: 'guess' }]), 400, 'invalid');
    expectError(await putAliases('acme-machine:A100', [{ sku_id: 'nobody-supply:B1' }]), 400, 'namespace_unsupported');
    expectError(await putAliases('acme-machine:A100', [{ source: 'manual' }]), 400, 'missing');
    expectError(await t.put(`/ucp/v1/skus/${enc('acme-machine:A100')}/aliases`, {}), 400, 'missing');
    const bad = await putAliases('acme-machine:A100', [{ sku_id: 'beta-supply:B1' }, { sku_id: 'beta supply' }]);
    expectError(bad, 400, 'invalid');
    expect(bad.body.messages[0].path).toBe('$.aliases[1].sku_id');
  });
});
