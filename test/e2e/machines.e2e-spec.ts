import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { expectEnvelope } from '../support/envelope';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';

/** The main machines flow end to end, on the real PostgreSQL server and on the embedded database. */
const NS = 'acme-machine';
const PLUS8 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+08:00$/;

describe.each(BOTH_DATABASES)('machines main flow on %s', (db) => {
  let p: FakePartner;
  let t: TestApp;
  const now = Date.now();

  beforeAll(async () => {
    p = await startFakePartner({ token: 'secret-partner-token' });
    t = await startTestApp({
      db,
      env: {
        SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: NS, baseUrl: p.url, token: 'secret-partner-token', capabilities: ['inventory', 'ledger'] }]),
        SERVICE_DEFAULT_MACHINE_NAMESPACE: NS,
      },
    });
    p.state.inventory['m-1'] = [
      { vendorSku: 'COLA', title: 'Cola 330ml', priceFen: 350, stock: 4, barcode: '6901234567892', slotId: 'A1', capacity: 10 },
      { vendorSku: 'TEA', title: 'Green tea', priceFen: 400, stock: 0 },
    ];
    p.state.ledger = [
      {
        orderNo: 'S-1',
        locationId: 'm-1',
        totalFen: 700,
        createdAt: now - 3_600_000,
        takenAt: now - 3_600_000,
        settledAt: now - 3_500_000,
        updatedAt: now - 3_500_000,
        finalized: true,
        state: 'settled',
        stateRaw: 'TRADE_SUCCESS',
        stateLabel: '交易成功',
        lines: [{ vendorSku: 'COLA', title: 'Cola 330ml', quantity: 2, priceFen: 350, status: 'paid', costFen: 200 }],
      },
      {
        orderNo: 'S-2',
        locationId: 'm-1',
        totalFen: 400,
        createdAt: now - 1_800_000,
        lines: [{ vendorSku: 'TEA', quantity: 1, priceFen: 400, status: 'refunded', costFen: null }],
      },
    ];
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await p.close();
  }, 60_000);

  it('registers a machine, reads it live, syncs it and serves its sales', async () => {
    const put = await t.put('/ucp/v1/locations/m-1', { name: 'Lobby machine', profile: { city: 'Shanghai', floor: 2 } }).expect(200);
    expectEnvelope(put.body, 'success');
    expect(put.body.location).toMatchObject({ id: 'm-1', name: 'Lobby machine', namespace: NS, profile: { city: 'Shanghai', floor: 2 } });

    const live = await t.get('/ucp/v1/locations/m-1/inventory').expect(200);
    expect(live.body.location_id).toBe('m-1');
    expect(live.body.read_at).toMatch(PLUS8);
    expect(live.body.items).toEqual([
      { sku_id: 'acme-machine:COLA', vendor_sku: 'COLA', title: 'Cola 330ml', barcodes: [{ type: 'ean', value: '6901234567892' }], price: { amount: 350, currency: 'CNY' }, stock: 4 },
      { sku_id: 'acme-machine:TEA', vendor_sku: 'TEA', title: 'Green tea', price: { amount: 400, currency: 'CNY' }, stock: 0 },
    ]);

    const sync = await t.post('/ucp/v1/locations/sync', {}).expect(200);
    expectEnvelope(sync.body, 'success');
    expect(sync.body).toMatchObject({ locations: 1, products: 2, slots: 2, sales: 2 });

    // The machine catalog reads the synced copy: slot ids <location>-<vendor_sku>, each price, barcode as sku.
    const cat = await t.post('/ucp/v1/catalog/search', { filters: { namespace: NS, location: 'm-1' } }).expect(200);
    const variants = JSON.stringify(cat.body);
    expect(variants).toContain('"slot_id":"m-1-COLA"');
    expect(variants).toContain('"sku":"6901234567892"');
    expect(variants).not.toMatch(/cost|margin/i);

    const settled = await t.get('/ucp/v1/orders?kind=sale').expect(200);
    expect(settled.body.orders.map((o: { id: string }) => o.id)).toEqual(['S-1']);
    expect(settled.body.messages.map((m: { code: string }) => m.code)).not.toContain('stale_data');
    const o = settled.body.orders[0];
    expect(o).toMatchObject({
      id: 'S-1',
      kind: 'sale',
      currency: 'CNY',
      location: 'm-1',
      location_name: 'Lobby machine',
      trade_status: 'settled',
      trade_status_raw: 'TRADE_SUCCESS',
      trade_status_label: '交易成功',
      finalized: true,
      fulfillment: { expectations: [], events: [] },
      adjustments: [],
      totals: [
        { type: 'subtotal', amount: 700 },
        { type: 'total', amount: 700 },
      ],
    });
    for (const k of ['taken_at', 'settled_at', 'updated_at']) expect(o[k]).toMatch(PLUS8);
    expect(o.line_items[0]).toMatchObject({ item: { id: 'acme-machine:COLA', price: { amount: 350, currency: 'CNY' } }, quantity: { original: 2, total: 2, fulfilled: 2 }, status: 'fulfilled' });
    expect(JSON.stringify(settled.body)).not.toMatch(/cost/i);

    const all = await t.get('/ucp/v1/orders?trade_status=all').expect(200);
    const refunded = all.body.orders.find((x: { id: string }) => x.id === 'S-2');
    expect(refunded).toMatchObject({ trade_status: 'refunded', trade_status_raw: null });
    expect(refunded.adjustments[0]).toMatchObject({ type: 'refund', totals: [{ type: 'total', amount: -400 }] });
    expect(refunded).not.toHaveProperty('settled_at');
    expect(refunded).not.toHaveProperty('updated_at');
    expect(refunded).not.toHaveProperty('finalized');

    const one = await t.get('/ucp/v1/orders/S-1').expect(200);
    expectEnvelope(one.body, 'success');
    expect(one.body).toMatchObject({ id: 'S-1', trade_status: 'settled', location: 'm-1' });

    const ev = await t.get('/ucp/v1/events?limit=50').expect(200);
    const kinds = ev.body.events.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['sync.completed', 'sale.settled']));
    // The partner token never reaches a log line.
    expect(t.logs.join('\n')).not.toContain('secret-partner-token');
    expect(p.requestsTo('GET /ledger')[0].headers.authorization).toBe('Bearer secret-partner-token');
    expect(JSON.stringify(p.requests.map((r) => [r.path, r.query]))).not.toContain('secret-partner-token');
  });
});

describe('machines against the simulated platform (staging)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'embedded' });
  }, 60_000);
  afterAll(() => t.close(), 60_000);

  it('registers the simulated machines, reads them live, syncs five weeks of sales and serves them', async () => {
    for (const id of ['sim-loc-01', 'sim-loc-02']) await t.put(`/ucp/v1/locations/${id}`, { name: id }).expect(200);
    const live = await t.get('/ucp/v1/locations/sim-loc-01/inventory').expect(200);
    expect(live.body.items.length).toBeGreaterThan(0);
    expect(live.body.items[0].sku_id).toMatch(/^sim-machine:/);

    const sync = await t.post('/ucp/v1/locations/sync', { sales_window_days: 35 }).expect(200);
    expect(sync.body.locations).toBe(2);
    expect(sync.body.slots).toBeGreaterThan(0);
    expect(sync.body.sales).toBeGreaterThan(0);

    const settled = await t.get('/ucp/v1/orders?location=sim-loc-01&limit=20').expect(200);
    expect(settled.body.orders.length).toBeGreaterThan(0);
    expect(settled.body.orders.every((o: { location: string; trade_status: string }) => o.location === 'sim-loc-01' && o.trade_status === 'settled')).toBe(true);
    expect(settled.body.messages.map((m: { code: string }) => m.code)).not.toContain('stale_data');
    const all = await t.get('/ucp/v1/orders?trade_status=all&limit=100').expect(200);
    expect(new Set(all.body.orders.map((o: { trade_status?: string }) => o.trade_status)).size).toBeGreaterThan(1);
    const id = settled.body.orders[0].id;
    // The embedded database answers a page row and a read by id alike: the order reads the same either way.
    const { ucp: _ucp, messages: _messages, ...one } = (await t.get(`/ucp/v1/orders/${encodeURIComponent(id)}`).expect(200)).body;
    expect(one).toEqual(settled.body.orders[0]);
  });
});
