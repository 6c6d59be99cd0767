import { createServer, request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InventorySyncJob, LedgerSyncJob } from '../../src/sync/sync.jobs';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { expectEnvelope, expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';
import { sql } from '../support/sql';
import { waitUntil } from '../support/wait-until';

const NS = 'acme-machine';
const DAY = 86_400_000;

function env(url: string, extra: Record<string, string> = {}) {
  return {
    SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: NS, baseUrl: url, token: 't', capabilities: ['inventory', 'ledger'] }]),
    SERVICE_DEFAULT_MACHINE_NAMESPACE: NS,
    ...extra,
  };
}

function sale(n: number, over: Record<string, unknown> = {}) {
  const at = Date.now() - 2 * 3_600_000 + n * 1000;
  return {
    orderNo: `O-${String(n).padStart(4, '0')}`,
    locationId: 'm-1',
    totalFen: 300,
    createdAt: at,
    takenAt: at,
    updatedAt: at,
    state: 'settled',
    lines: [{ vendorSku: 'COLA', quantity: 1, priceFen: 300, status: 'paid', costFen: null }],
    ...over,
  };
}

/** A pass-through in front of the fake partner that fails one ledger page (a partner dying mid-sync). */
async function failingPage(target: string, page: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/ledger' && u.searchParams.get('page') === page) {
      res.writeHead(503, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ ok: false, reason: 'maintenance' }));
      return;
    }
    const fwd = httpRequest(`${target}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(fwd);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => {
    server.closeAllConnections();
    server.close(() => r());
  }) };
}

const codes = (body: { messages: { code: string }[] }) => body.messages.map((m) => m.code);

describe('POST /locations/sync and the ledger ingestion', () => {
  let p: FakePartner;
  let t: TestApp;

  beforeAll(async () => {
    p = await startFakePartner({ token: 't' });
    t = await startTestApp({ env: env(p.url) });
    await t.put('/ucp/v1/locations/m-1', { name: 'One' }).expect(200);
    p.state.inventory['m-1'] = [{ vendorSku: 'COLA', title: 'Cola', priceFen: 300, stock: 3, slotId: 'A1', capacity: 12 }];
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await p.close();
  });

  it('validates sales_window_days (integer, at least 21, default 30) and reads the ledger by update time, 100 a page', async () => {
    expectError(await t.post('/ucp/v1/locations/sync', { sales_window_days: 20 }), 400, 'invalid');
    expectError(await t.post('/ucp/v1/locations/sync', { sales_window_days: 30.5 }), 400, 'invalid');
    expectError(await t.post('/ucp/v1/locations/sync', { sales_window_days: '30' }), 400, 'invalid');
    const before = p.requestsTo('GET /ledger').length;
    const started = Date.now();
    await t.post('/ucp/v1/locations/sync').expect(200);
    const q = p.requestsTo('GET /ledger')[before].query;
    expect(q).toMatchObject({ by: 'updated', size: '100', page: '1' });
    expect(Number(q.toMs) - Number(q.fromMs)).toBe(30 * DAY);
    expect(Math.abs(Number(q.toMs) - started)).toBeLessThan(10_000);
    const n = p.requestsTo('GET /ledger').length;
    await t.post('/ucp/v1/locations/sync', { sales_window_days: 21 }).expect(200);
    const q21 = p.requestsTo('GET /ledger')[n].query;
    expect(Number(q21.toMs) - Number(q21.fromMs)).toBe(21 * DAY);
  });

  it('ingests every page, stores a record read twice once, and a revision replaces the old state', async () => {
    p.state.ledger = Array.from({ length: 250 }, (_, i) => sale(i));
    const r1 = await t.post('/ucp/v1/locations/sync', {}).expect(200);
    expect(r1.body.sales).toBe(250);
    const [{ n }] = await sql<{ n: string }>(t, 'SELECT count(*) AS n FROM sale_orders');
    expect(Number(n)).toBe(250);
    const settledEvents = async () =>
      (await sql<{ n: string }>(t, `SELECT coalesce(sum((data->>'count')::int), 0) AS n FROM events WHERE kind = 'sale.settled'`))[0].n;
    expect(Number(await settledEvents())).toBe(250);

    // Read again: nothing new stored, no second sale.settled.
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
    expect(Number((await sql<{ n: string }>(t, 'SELECT count(*) AS n FROM sale_orders'))[0].n)).toBe(250);
    expect(Number((await sql<{ n: string }>(t, 'SELECT count(*) AS n FROM sale_lines'))[0].n)).toBe(250);
    expect(Number(await settledEvents())).toBe(250);

    // A revision: refunded, new updatedAt. Consumers see the new (id, updated_at).
    const old = (await t.get('/ucp/v1/orders/O-0007').expect(200)).body;
    const rev = sale(7, { updatedAt: Date.now(), state: 'refunded', lines: [{ vendorSku: 'COLA', quantity: 1, priceFen: 300, status: 'refunded', costFen: null }] });
    p.state.ledger[7] = rev;
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
    const now = (await t.get('/ucp/v1/orders/O-0007').expect(200)).body;
    expect(now.trade_status).toBe('refunded');
    expect(now.updated_at).not.toBe(old.updated_at);
    expect(now.line_items[0].status).toBe('removed');
    expect(now.adjustments[0].type).toBe('refund');

    // An older revision read later does not overwrite the newer one.
    p.state.ledger[7] = sale(7);
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
    expect((await t.get('/ucp/v1/orders/O-0007').expect(200)).body.trade_status).toBe('refunded');
  });

  it('keeps the slots right: capacity kept, partner slot id as label, price_locked untouched, departed products removed', async () => {
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
    await sql(t, `UPDATE slots SET price_locked = true WHERE id = 'm-1-COLA'`);
    p.state.inventory['m-1'] = [
      { vendorSku: 'COLA', title: 'Cola 330', priceFen: 320, stock: 2, barcode: '6901234567892' },
      { vendorSku: 'GUM', title: 'Gum', priceFen: 100, stock: 9 },
    ];
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
    let slots = await sql(t, `SELECT id, title, price_fen, stock, capacity, partner_slot_id, price_locked, barcode, sku_id FROM slots WHERE location_id = 'm-1' ORDER BY id`);
    expect(slots).toEqual([
      { id: 'm-1-COLA', title: 'Cola 330', price_fen: '320', stock: 2, capacity: 12, partner_slot_id: 'A1', price_locked: true, barcode: '6901234567892', sku_id: 'acme-machine:COLA' },
      { id: 'm-1-GUM', title: 'Gum', price_fen: '100', stock: 9, capacity: null, partner_slot_id: null, price_locked: false, barcode: null, sku_id: 'acme-machine:GUM' },
    ]);
    // GUM leaves the machine; a refused record (bad price) is not mistaken for a departed product.
    p.state.inventory['m-1'] = [{ vendorSku: 'COLA', title: 'Cola 330', priceFen: 3.2, stock: 2 }];
    const r = await t.post('/ucp/v1/locations/sync', {}).expect(200);
    expect(r.body.messages.some((m: { severity: string; content: string }) => m.severity === 'warning' && m.content.includes('COLA'))).toBe(true);
    slots = await sql(t, `SELECT id, price_fen FROM slots WHERE location_id = 'm-1' ORDER BY id`);
    expect(slots).toEqual([{ id: 'm-1-COLA', price_fen: '320' }]);
    p.state.inventory['m-1'] = [{ vendorSku: 'COLA', title: 'Cola', priceFen: 300, stock: 3 }];
  });

  it('a partner failure keeps what was stored, is recorded as events, and marks the sales stale', async () => {
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
    const fresh = await t.get('/ucp/v1/orders').expect(200);
    expect(codes(fresh.body)).not.toContain('stale_data');
    const ordersBefore = await sql(t, 'SELECT id, trade_status, updated_at FROM sale_orders ORDER BY id');
    const slotsBefore = await sql(t, 'SELECT id, stock, price_fen FROM slots ORDER BY id');

    p.fault('*', { status: 500 });
    const res = await t.post('/ucp/v1/locations/sync', {});
    p.clearFaults();
    expectError(res, 502, 'upstream_unreachable');
    expect(await sql(t, 'SELECT id, trade_status, updated_at FROM sale_orders ORDER BY id')).toEqual(ordersBefore);
    expect(await sql(t, 'SELECT id, stock, price_fen FROM slots ORDER BY id')).toEqual(slotsBefore);

    const stale = await t.get('/ucp/v1/orders').expect(200);
    expect(codes(stale.body)).toContain('stale_data');
    expect(stale.body.orders.length).toBeGreaterThan(0); // the copy is still served
    const kinds = (await t.get('/ucp/v1/events?limit=10').expect(200)).body.events.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['sync.failed', 'partner.error']));
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
    expect(codes((await t.get('/ucp/v1/orders').expect(200)).body)).not.toContain('stale_data');
    // A last success older than 15 minutes is stale too.
    await sql(t, `UPDATE sync_state SET last_success_at = now() - interval '16 minutes' WHERE job = 'ledger:acme-machine'`);
    expect(codes((await t.get('/ucp/v1/orders').expect(200)).body)).toContain('stale_data');
    await sql(t, `UPDATE sync_state SET last_success_at = now() - interval '14 minutes', last_failure_at = now() - interval '20 minutes' WHERE job = 'ledger:acme-machine'`);
    expect(codes((await t.get('/ucp/v1/orders').expect(200)).body)).not.toContain('stale_data');
  });

  it('a ledger that fails on page 2 keeps page 1 stored, answers with the failure, and nothing is deleted', async () => {
    const proxy = await failingPage(p.url, '2');
    const p2 = await startTestApp({ env: env(proxy.url) });
    try {
      p.state.ledger = Array.from({ length: 150 }, (_, i) => sale(1000 + i));
      await p2.put('/ucp/v1/locations/m-1', { name: 'One' }).expect(200);
      const res = await p2.post('/ucp/v1/locations/sync', {}).expect(200);
      const failure = res.body.messages.find((m: { code: string }) => m.code === 'upstream_unreachable');
      expect(failure.content).toMatch(/page 2/);
      expect(res.body.locations).toBe(1);
      expect(res.body.sales).toBe(100);
      const all = await p2.get('/ucp/v1/orders?trade_status=all').expect(200);
      expect(all.body.orders).toHaveLength(100);
      expect(codes(all.body)).toContain('stale_data');
      const failed = (await p2.get('/ucp/v1/events?kind=sync.failed').expect(200)).body.events;
      expect(failed[0].reasoning).toMatch(/page 2/);
    } finally {
      await p2.close();
      await proxy.close();
    }
  });

  it('refuses non-conforming ledger records with warnings naming them and keeps the rest of the page', async () => {
    p.state.ledger = [
      sale(1),
      sale(2, { totalFen: 3.5 }),
      sale(3, { totalFen: '300' }),
      sale(4, { createdAt: undefined }),
      sale(5, { state: 'WEIRD_STATE' }),
      sale(6, { state: undefined, lines: [{ vendorSku: 'COLA', quantity: 1, priceFen: 300, status: 'mystery', costFen: null }] }),
      sale(7, { lines: [{ vendorSku: 'COLA', quantity: 1, priceFen: 299.99, status: 'paid', costFen: null }] }),
    ];
    await sql(t, 'DELETE FROM sale_orders');
    const res = await t.post('/ucp/v1/locations/sync', {}).expect(200);
    expectEnvelope(res.body, 'success');
    expect(res.body.sales).toBe(3);
    const warnings = res.body.messages.filter((m: { severity: string }) => m.severity === 'warning').map((m: { content: string }) => m.content);
    for (const id of ['O-0002', 'O-0003', 'O-0004', 'O-0005', 'O-0006', 'O-0007']) expect(warnings.some((w: string) => w.includes(id))).toBe(true);
    const stored = await sql<{ id: string; total_fen: string }>(t, 'SELECT id, total_fen FROM sale_orders ORDER BY id');
    expect(stored.map((s) => s.id)).toEqual(['O-0001', 'O-0005', 'O-0006']);
    expect(stored.every((s) => s.total_fen === '300')).toBe(true);

    const all = await t.get('/ucp/v1/orders?trade_status=all').expect(200);
    const weird = all.body.orders.findIndex((o: { id: string }) => o.id === 'O-0005');
    expect(all.body.orders[weird]).toMatchObject({ trade_status: 'settled', trade_status_raw: 'WEIRD_STATE' });
    const marked = all.body.messages.filter((m: { severity: string; path: string }) => m.severity === 'warning' && m.path.startsWith(`$.orders[${weird}]`));
    expect(marked[0].content).toContain('O-0005');
    const mystery = all.body.orders.find((o: { id: string }) => o.id === 'O-0006');
    expect(mystery).not.toHaveProperty('trade_status');
    expect(mystery.line_items[0].status).toBe('processing');
  });

  it('a machine removed while its read is in flight gets no telemetry back', async () => {
    await t.put('/ucp/v1/locations/gone-1', { name: 'Leaving' }).expect(200);
    p.state.inventory['gone-1'] = [{ vendorSku: 'A', title: 'A', priceFen: 1, stock: 1 }];
    p.fault('GET /inventory', { delayMs: 600 });
    const asked = () => p.requestsTo('GET /inventory').filter((r) => r.query.locationId === 'gone-1').length;
    const before = asked();
    const sync = t.post('/ucp/v1/locations/sync', {}).then((r) => r);
    await waitUntil(() => asked() > before, { what: 'the inventory read of gone-1 to be in flight' });
    await t.del('/ucp/v1/locations/gone-1').expect(200);
    expect((await sync).status).toBe(200);
    p.clearFaults();
    expect(await sql(t, `SELECT id FROM slots WHERE location_id = 'gone-1'`)).toEqual([]);
  });

  it('syncs many machines with bounded concurrency', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `c-${i}`);
    for (const id of ids) {
      await t.put(`/ucp/v1/locations/${id}`, { name: id }).expect(200);
      p.state.inventory[id] = [{ vendorSku: 'X', title: 'X', priceFen: 1, stock: 1 }];
    }
    p.state.ledger = [];
    p.fault('GET /inventory', { delayMs: 150 });
    const started = Date.now();
    const res = await t.post('/ucp/v1/locations/sync', {}).expect(200);
    const took = Date.now() - started;
    p.clearFaults();
    expect(res.body.locations).toBe(41);
    // 41 machines, 150 ms each, 16 at a time: at least 3 waves; far less than one at a time.
    expect(took).toBeGreaterThanOrEqual(3 * 150 - 20);
    expect(took).toBeLessThan(41 * 150);
  });
});

describe('scheduled syncs', () => {
  let p: FakePartner;
  beforeAll(async () => {
    p = await startFakePartner({ token: 't' });
  });
  afterAll(() => p.close());

  it('registers nothing when the scheduler is off, and the check interval of each sync when on', async () => {
    const off = await startTestApp({ env: env(p.url, { SERVICE_SCHEDULER: 'off' }) });
    try {
      expect(off.app.get(SchedulerRegistry).getIntervals()).not.toContain('sync.ledger');
      expect(off.app.get(SchedulerRegistry).getIntervals()).not.toContain('sync.inventory');
    } finally {
      await off.close();
    }
    const on = await startTestApp({ env: env(p.url, { SERVICE_SCHEDULER: 'on' }) });
    try {
      expect(on.app.get(SchedulerRegistry).getIntervals()).toEqual(expect.arrayContaining(['sync.ledger', 'sync.inventory']));
    } finally {
      await on.close();
    }
  });

  it('runs each tick once across two instances on one database, over the last 3 hours of the default namespace', async () => {
    const a = await startTestApp({ env: env(p.url) });
    const b = await startTestApp({ databaseUrl: a.databaseUrl!, env: env(p.url) });
    try {
      await a.put('/ucp/v1/locations/m-1', { name: 'One' }).expect(200);
      await a.put('/ucp/v1/locations/sim-1', { name: 'Sim', namespace: 'sim-machine' }).expect(200);
      p.state.inventory['m-1'] = [{ vendorSku: 'COLA', title: 'Cola', priceFen: 300, stock: 3 }];
      p.state.ledger = [sale(1)];
      const [la, lb] = [a.app.get(LedgerSyncJob), b.app.get(LedgerSyncJob)];
      const [ia, ib] = [a.app.get(InventorySyncJob), b.app.get(InventorySyncJob)];
      const tick = Math.floor(Date.now() / 300_000) * 300_000 + 1000;
      const ledgerBefore = p.requestsTo('GET /ledger').length;
      const first = await Promise.all([la.tick(tick), lb.tick(tick)]);
      expect(first.filter(Boolean)).toHaveLength(1);
      expect(await lb.tick(tick + 60_000)).toBe(false); // same 5-minute tick
      expect(p.requestsTo('GET /ledger').length - ledgerBefore).toBe(1);
      const q = p.requestsTo('GET /ledger')[ledgerBefore].query;
      expect(q).toMatchObject({ by: 'updated', size: '100', page: '1' });
      expect(Number(q.toMs) - Number(q.fromMs)).toBe(3 * 3_600_000);
      expect(await lb.tick(tick + 300_000)).toBe(true); // next tick
      expect((await a.get('/ucp/v1/orders').expect(200)).body.orders.map((o: { id: string }) => o.id)).toEqual(['O-0001']);

      const invBefore = p.requestsTo('GET /inventory').length;
      const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1000;
      const inv = await Promise.all([ia.tick(hour), ib.tick(hour)]);
      expect(inv.filter(Boolean)).toHaveLength(1);
      expect(await ia.tick(hour + 30 * 60_000)).toBe(false);
      // Only the default namespace's machines: m-1, not the sim-machine one.
      expect(p.requestsTo('GET /inventory').slice(invBefore).map((r) => r.query.locationId)).toEqual(['m-1']);
      const { rows } = { rows: await sql(a, `SELECT id FROM slots ORDER BY id`) };
      expect(rows).toEqual([{ id: 'm-1-COLA' }]);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
