import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { expectEnvelope, expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';

const NS = 'acme-machine';
const PLUS8 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+08:00$/;
const vendors = (p: FakePartner) =>
  JSON.stringify([
    { namespace: NS, baseUrl: p.url, token: 't', capabilities: ['inventory', 'ledger'] },
    { namespace: 'acme-supply', baseUrl: p.url, token: 't', capabilities: ['catalog', 'orders'] },
  ]);

describe('locations', () => {
  let p: FakePartner;
  let t: TestApp;

  beforeAll(async () => {
    p = await startFakePartner({ token: 't' });
    t = await startTestApp({ env: { SERVICE_HTTP_VENDORS: vendors(p), SERVICE_DEFAULT_MACHINE_NAMESPACE: NS } });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await p.close();
  });

  describe('PUT /locations/{id}', () => {
    it('registers, then updates keeping the profile when none is sent', async () => {
      const a = await t.put('/ucp/v1/locations/put-1', { name: 'First', profile: { city: 'Hangzhou', address: '1 West Lake Rd', placement: 'lobby', venueType: 'office', floor: 3, spot: 'by the lift' } }).expect(200);
      expectEnvelope(a.body, 'success');
      expect(a.body.location).toMatchObject({ id: 'put-1', name: 'First', namespace: NS, profile: { city: 'Hangzhou', floor: 3, spot: 'by the lift' } });
      expect(a.body.location.created_at).toMatch(PLUS8);
      const b = await t.put('/ucp/v1/locations/put-1', { name: 'Renamed' }).expect(200);
      expect(b.body.location).toMatchObject({ name: 'Renamed', profile: { city: 'Hangzhou' } });
      const c = await t.put('/ucp/v1/locations/put-1', { name: 'Renamed', profile: { city: 'Suzhou' } }).expect(200);
      expect(c.body.location.profile).toEqual({ city: 'Suzhou' });
    });

    it('answers 400 missing without a name and 400 invalid for a bad id or profile', async () => {
      const r = await t.put('/ucp/v1/locations/put-2', { profile: {} });
      expectError(r, 400, 'missing');
      expect(r.body.messages[0].path).toBe('$.name');
      expectError(await t.put('/ucp/v1/locations/bad%20id', { name: 'x' }), 400, 'invalid');
      expectError(await t.put(`/ucp/v1/locations/${'a'.repeat(65)}`, { name: 'x' }), 400, 'invalid');
      expectError(await t.put('/ucp/v1/locations/a%3Ab', { name: 'x' }), 400, 'invalid');
      const prof = await t.put('/ucp/v1/locations/put-2', { name: 'x', profile: { colour: 'red' } });
      expectError(prof, 400, 'invalid');
      expect(prof.body.messages[0].path).toBe('$.profile.colour');
      expectError(await t.put('/ucp/v1/locations/put-2', { name: 'x', profile: { city: { a: 1 } } }), 400, 'invalid');
      expectError(await t.put('/ucp/v1/locations/put-2', { name: 42 }), 400, 'invalid');
    });

    it('accepts only a usable machine namespace', async () => {
      expectError(await t.put('/ucp/v1/locations/put-3', { name: 'x', namespace: 'nobody-machine' }), 400, 'namespace_unsupported');
      expectError(await t.put('/ucp/v1/locations/put-3', { name: 'x', namespace: 'acme-supply' }), 400, 'namespace_mismatch');
      expectError(await t.put('/ucp/v1/locations/put-3', { name: 'x', namespace: 'not a namespace' }), 400, 'invalid');
      const ok = await t.put('/ucp/v1/locations/put-3', { name: 'x', namespace: 'sim-machine' }).expect(200);
      expect(ok.body.location.namespace).toBe('sim-machine');
    });
  });

  describe('POST /locations/search', () => {
    beforeAll(async () => {
      await t.put('/ucp/v1/locations/s-a', { name: 'Airport Terminal 2', profile: { city: 'Shanghai', venueType: 'airport' }, amenities: ['wifi', 'card'] }).expect(200);
      await t.put('/ucp/v1/locations/s-b', { name: 'Office tower', profile: { city: 'Beijing', placement: '50%_corner' }, amenities: ['card'] }).expect(200);
      await t.put('/ucp/v1/locations/s-c', { name: 'Gym', profile: { city: 'Shanghai' } }).expect(200);
      p.state.inventory['s-a'] = [{ vendorSku: 'COLA', title: 'Cola', priceFen: 300, stock: 1 }, { vendorSku: 'TEA', title: 'Tea', priceFen: 300, stock: 0 }];
      p.state.inventory['s-b'] = [{ vendorSku: 'COLA', title: 'Cola', priceFen: 300, stock: 5 }];
      p.state.inventory['s-c'] = [];
      for (const id of ['put-1', 'put-2', 'put-3']) p.state.inventory[id] = [];
      await t.post('/ucp/v1/locations/sync', {}).expect(200);
    });
    const ids = (res: { body: { locations: { id: string }[] } }) => res.body.locations.map((l) => l.id);

    it('matches the query over the name and the profile values, case-insensitively and literally', async () => {
      expect(ids(await t.post('/ucp/v1/locations/search', { query: 'shanghai' }).expect(200))).toEqual(['s-a', 's-c']);
      expect(ids(await t.post('/ucp/v1/locations/search', { query: 'TERMINAL' }).expect(200))).toEqual(['s-a']);
      expect(ids(await t.post('/ucp/v1/locations/search', { query: '50%_' }).expect(200))).toEqual(['s-b']);
      expect(ids(await t.post('/ucp/v1/locations/search', { query: '%' }).expect(200))).toEqual(['s-b']);
      expect(ids(await t.post('/ucp/v1/locations/search', { query: 'city' }).expect(200))).toEqual([]);
    });

    it('filters.items keeps the machines carrying every listed id; amenities must all be present', async () => {
      const cola = { filters: { items: [{ id: 'acme-machine:COLA' }] } };
      expect(ids(await t.post('/ucp/v1/locations/search', cola).expect(200))).toEqual(['s-a', 's-b']);
      const both = { filters: { items: [{ id: 'acme-machine:COLA' }, { id: 'acme-machine:TEA' }] } };
      expect(ids(await t.post('/ucp/v1/locations/search', both).expect(200))).toEqual(['s-a']);
      expect(ids(await t.post('/ucp/v1/locations/search', { filters: { amenities: ['card'] } }).expect(200))).toEqual(['s-a', 's-b']);
      expect(ids(await t.post('/ucp/v1/locations/search', { filters: { amenities: ['card', 'wifi'] } }).expect(200))).toEqual(['s-a']);
    });

    it('accepts hours without applying it, and refuses a malformed one', async () => {
      const all = ids(await t.post('/ucp/v1/locations/search', {}).expect(200));
      const withHours = ids(await t.post('/ucp/v1/locations/search', { filters: { hours: { open_at: '2026-11-22T03:00:00+08:00' } } }).expect(200));
      expect(withHours).toEqual(all);
      expectError(await t.post('/ucp/v1/locations/search', { filters: { hours: { open_at: 'tomorrow' } } }), 400, 'invalid');
    });

    it('paginates with a cursor, every location exactly once', async () => {
      const all = ids(await t.post('/ucp/v1/locations/search', { pagination: { limit: 100 } }).expect(200));
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const res = await t.post('/ucp/v1/locations/search', { pagination: { limit: 2, ...(cursor ? { cursor } : {}) } }).expect(200);
        seen.push(...ids(res));
        if (!res.body.pagination.has_next_page) break;
        cursor = res.body.pagination.cursor;
      }
      expect(seen).toEqual(all);
      expect(all.length).toBeGreaterThan(2);
      expectError(await t.post('/ucp/v1/locations/search', { pagination: { cursor: '***' } }), 400, 'invalid');
      expectError(await t.post('/ucp/v1/locations/search', { pagination: { limit: 0 } }), 400, 'invalid');
    });
  });

  describe('DELETE /locations/{id}', () => {
    it('removes the machine, purges profile, context and telemetry with counts, keeps its events', async () => {
      await t.put('/ucp/v1/locations/del-1', { name: 'Doomed', profile: { city: 'Xi an', floor: 1 }, amenities: ['wifi', 'atm', 'card'] }).expect(200);
      p.state.inventory['del-1'] = [{ vendorSku: 'A', title: 'A', priceFen: 1, stock: 1 }, { vendorSku: 'B', title: 'B', priceFen: 1, stock: 1 }];
      await t.post('/ucp/v1/locations/sync', {}).expect(200);
      await t.post('/ucp/v1/events', { kind: 'note', summary: 'visited', reasoning: 'route check', location: 'del-1' }).expect(201);

      const res = await t.del('/ucp/v1/locations/del-1').expect(200);
      expectEnvelope(res.body, 'success');
      expect(res.body).toMatchObject({ removed: 'del-1', purged: { profile: 2, context: 3, telemetry: 2 } });
      expectError(await t.del('/ucp/v1/locations/del-1'), 404, 'not_found');
      expectError(await t.get('/ucp/v1/locations/del-1/inventory'), 404, 'not_found');
      const search = await t.post('/ucp/v1/locations/search', { filters: { items: [{ id: 'acme-machine:A' }] } }).expect(200);
      expect(search.body.locations).toEqual([]);
      const ev = await t.get('/ucp/v1/events?location=del-1').expect(200);
      expect(ev.body.events.map((e: { kind: string }) => e.kind)).toEqual(expect.arrayContaining(['note', 'location.removed']));
      expectError(await t.del('/ucp/v1/locations/no-such'), 404, 'not_found');
      expectError(await t.del('/ucp/v1/locations/bad%20id'), 400, 'invalid');
    });
  });

  describe('GET /locations/{id}/inventory', () => {
    beforeAll(async () => {
      await t.put('/ucp/v1/locations/inv-1', { name: 'Inventory machine' }).expect(200);
    });

    it('reads the platform live every time (no cache), with read_at in +08:00', async () => {
      p.state.inventory['inv-1'] = [{ vendorSku: 'COLA', title: 'Cola', priceFen: 300, stock: 5 }];
      const before = p.requestsTo('GET /inventory').length;
      const a = await t.get('/ucp/v1/locations/inv-1/inventory').expect(200);
      expect(a.body.read_at).toMatch(PLUS8);
      expect(a.body.items[0].stock).toBe(5);
      p.state.inventory['inv-1'] = [{ vendorSku: 'COLA', title: 'Cola', priceFen: 320, stock: 4 }];
      const b = await t.get('/ucp/v1/locations/inv-1/inventory').expect(200);
      expect(b.body.items[0]).toMatchObject({ stock: 4, price: { amount: 320, currency: 'CNY' } });
      const calls = p.requestsTo('GET /inventory').slice(before);
      expect(calls).toHaveLength(2);
      expect(calls[0].query.locationId).toBe('inv-1');
    });

    it('answers 502 upstream_unreachable when the platform fails, never an empty list, and records partner.error', async () => {
      p.state.inventory['inv-1'] = [{ vendorSku: 'COLA', title: 'Cola', priceFen: 300, stock: 5 }];
      for (const fault of [{ status: 500 }, { destroy: true }, { rawBody: 'not json' }, { status: 200, body: { items: 'nope' } }]) {
        p.fault('GET /inventory', { ...fault, times: 1 });
        const res = await t.get('/ucp/v1/locations/inv-1/inventory');
        expectError(res, 502, 'upstream_unreachable');
        expect(res.body.items).toBeUndefined();
      }
      const ev = await t.get('/ucp/v1/events?kind=partner.error&location=inv-1').expect(200);
      expect(ev.body.events.length).toBeGreaterThanOrEqual(4);
    });

    it('refuses a non-conforming item with a warning naming it and keeps the rest', async () => {
      p.state.inventory['inv-1'] = [
        { vendorSku: 'GOOD', title: 'Good', priceFen: 300, stock: 5 },
        { vendorSku: 'FLOAT', title: 'Float', priceFen: 3.5, stock: 5 },
        { vendorSku: 'STR', title: 'String', priceFen: '300', stock: 5 },
        { vendorSku: 'NOSTOCK', title: 'No stock', priceFen: 300 },
      ];
      const res = await t.get('/ucp/v1/locations/inv-1/inventory').expect(200);
      expect(res.body.items.map((i: { vendor_sku: string }) => i.vendor_sku)).toEqual(['GOOD']);
      const warnings = res.body.messages.filter((m: { severity: string }) => m.severity === 'warning').map((m: { content: string }) => m.content);
      expect(warnings).toHaveLength(3);
      for (const sku of ['FLOAT', 'STR', 'NOSTOCK']) expect(warnings.some((w: string) => w.includes(sku))).toBe(true);
    });

    it('is read-only: the kill switch does not block it', async () => {
      p.state.inventory['inv-1'] = [{ vendorSku: 'COLA', title: 'Cola', priceFen: 300, stock: 5 }];
      const k = await startTestApp({ env: { SERVICE_HTTP_VENDORS: vendors(p), SERVICE_DEFAULT_MACHINE_NAMESPACE: NS, SERVICE_KILL_SWITCH: 'on' } });
      try {
        await k.put('/ucp/v1/locations/inv-1', { name: 'x' }).expect(200);
        const res = await k.get('/ucp/v1/locations/inv-1/inventory').expect(200);
        expect(res.body.items).toHaveLength(1);
      } finally {
        await k.close();
      }
    });

    it('answers 404 for an unregistered machine and 400 for a bad id', async () => {
      expectError(await t.get('/ucp/v1/locations/nope/inventory'), 404, 'not_found');
      expectError(await t.get('/ucp/v1/locations/bad%20id/inventory'), 400, 'invalid');
    });
  });
});
