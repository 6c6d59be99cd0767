import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { expectEnvelope, expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';

const NS = 'acme-machine';
const BASE = Date.UTC(2026, 10, 20, 0, 0, 0); // 2026-11-20T08:00:00+08:00
const MIN = 60_000;
const STATES = ['in_progress', 'pending_review', 'settled', 'payment_failed', 'refunded', 'cancelled'] as const;

interface Order {
  id: string;
  location: string;
  trade_status?: string;
  taken_at: string;
  updated_at?: string;
}

/** 300 orders over 3 machines, one a minute; every 10th has a status other than settled; pairs share a take time. */
function ledger(): Record<string, unknown>[] {
  return Array.from({ length: 300 }, (_, i) => {
    const takenAt = BASE + Math.floor(i / 2) * MIN; // two orders per minute: ties broken by id
    const state = i % 10 === 0 ? STATES[(i / 10) % 6] : 'settled';
    return {
      orderNo: `L-${String(i).padStart(3, '0')}`,
      locationId: `m-${i % 3}`,
      totalFen: 100 + i,
      createdAt: takenAt,
      takenAt,
      updatedAt: i % 4 === 0 ? null : takenAt + 30 * MIN,
      state,
      lines: [{ vendorSku: 'COLA', quantity: 1, priceFen: 100 + i, status: 'paid', costFen: null }],
    };
  });
}

async function pageAll(t: TestApp, query: string, limit: number, between?: (page: number) => Promise<void>): Promise<Order[]> {
  const out: Order[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const res = await t.get(`/ucp/v1/orders?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).expect(200);
    expect(res.body.orders.length).toBeLessThanOrEqual(limit);
    out.push(...res.body.orders);
    if (!res.body.pagination.has_next_page) {
      expect(res.body.pagination.cursor).toBeUndefined();
      return out;
    }
    cursor = res.body.pagination.cursor;
    if (between) await between(page);
  }
  throw new Error('paging did not end');
}

describe('GET /orders?kind=sale and GET /orders/{id}', () => {
  let p: FakePartner;
  let t: TestApp;

  beforeAll(async () => {
    p = await startFakePartner({ token: 't' });
    t = await startTestApp({
      env: {
        SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: NS, baseUrl: p.url, token: 't', capabilities: ['inventory', 'ledger'] }]),
        SERVICE_DEFAULT_MACHINE_NAMESPACE: NS,
      },
    });
    await t.put('/ucp/v1/locations/m-0', { name: 'Zero' }).expect(200);
    const stale = await t.get('/ucp/v1/orders').expect(200);
    expect(stale.body.messages.map((m: { code: string }) => m.code)).toContain('stale_data'); // never synced yet
    p.state.ledger = ledger();
    for (const id of ['m-0']) p.state.inventory[id] = [];
    await t.post('/ucp/v1/locations/sync', { sales_window_days: 3650 }).expect(200);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await p.close();
  });

  it('defaults to settled sales, newest first, 100 a page', async () => {
    const res = await t.get('/ucp/v1/orders?kind=sale').expect(200);
    expectEnvelope(res.body, 'success');
    expect(res.body.orders).toHaveLength(100);
    expect(res.body.pagination.has_next_page).toBe(true);
    expect(typeof res.body.pagination.cursor).toBe('string');
    expect(res.body.orders.every((o: Order) => o.trade_status === 'settled')).toBe(true);
    const keys = res.body.orders.map((o: Order) => [Date.parse(o.taken_at), o.id]);
    const sorted = [...keys].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : -1));
    expect(keys).toEqual(sorted);
    expect((await t.get('/ucp/v1/orders').expect(200)).body.orders[0].id).toBe(res.body.orders[0].id); // kind defaults to sale
  });

  it('filters on trade_status: all, each of the six, and refuses anything else with 400 invalid', async () => {
    const all = await pageAll(t, 'trade_status=all', 100);
    expect(all).toHaveLength(300);
    let total = 0;
    for (const s of STATES) {
      const list = await pageAll(t, `trade_status=${s}`, 100);
      expect(list.every((o) => o.trade_status === s)).toBe(true);
      total += list.length;
    }
    expect(total).toBe(300);
    expect(await pageAll(t, 'trade_status=settled', 100)).toHaveLength(300 - 25);
    for (const bad of ['SETTLED', 'paid', 'refund', '', 'all,settled']) {
      expectError(await t.get(`/ucp/v1/orders?trade_status=${bad}`), 400, 'invalid');
    }
    expectError(await t.get('/ucp/v1/orders?trade_status=settled&trade_status=all'), 400, 'invalid');
  });

  it('limit: default and maximum 100; 101, 0 or text is 400 invalid', async () => {
    expect((await t.get('/ucp/v1/orders?limit=100').expect(200)).body.orders).toHaveLength(100);
    expect((await t.get('/ucp/v1/orders?limit=7').expect(200)).body.orders).toHaveLength(7);
    for (const bad of ['101', '0', '-1', 'ten', '1.5']) expectError(await t.get(`/ucp/v1/orders?limit=${bad}`), 400, 'invalid');
  });

  it('pages through every order exactly once while new orders arrive', async () => {
    const before = await pageAll(t, 'trade_status=all', 100);
    let n = 0;
    const seen = await pageAll(t, 'trade_status=all', 37, async () => {
      // New orders arrive between pages: some taken now, one taken in the middle of the range.
      const at = n === 0 ? BASE + 75 * MIN : Date.now();
      p.state.ledger.push({ orderNo: `NEW-${n++}`, locationId: 'm-1', totalFen: 1, createdAt: at, takenAt: at, updatedAt: Date.now(), state: 'settled', lines: [] });
      await t.post('/ucp/v1/locations/sync', { sales_window_days: 3650 }).expect(200);
    });
    const ids = seen.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length); // never twice
    for (const o of before) expect(ids).toContain(o.id); // never skipped
  });

  it('filters on taken_at with from/to in any RFC 3339 offset; a bad value is 400 invalid', async () => {
    // [08:10+08:00, 08:20+08:00) = minutes 10..19 = orders 20..39
    const a = await pageAll(t, `trade_status=all&from=${encodeURIComponent('2026-11-20T08:10:00+08:00')}&to=${encodeURIComponent('2026-11-20T00:20:00Z')}`, 100);
    expect(a.map((o) => o.id).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `L-${String(20 + i).padStart(3, '0')}`));
    const b = await pageAll(t, `trade_status=all&from=${encodeURIComponent('2026-11-19T19:10:00-05:00')}&to=${encodeURIComponent('2026-11-20T00:20:00.000Z')}`, 100);
    expect(b.map((o) => o.id).sort()).toEqual(a.map((o) => o.id).sort());
    for (const bad of ['yesterday', '2026-11-20', '2026-11-20T08:10:00', '2026-13-45T99:00:00Z']) {
      const res = await t.get(`/ucp/v1/orders?from=${encodeURIComponent(bad)}`);
      expectError(res, 400, 'invalid');
      expect(res.body.messages[0].path).toBe('$.from');
    }
    expectError(await t.get('/ucp/v1/orders?to=soon'), 400, 'invalid');
  });

  it('filters on location (done by the service) and refuses a malformed location id', async () => {
    const m2 = await pageAll(t, 'trade_status=all&location=m-2', 100);
    expect(m2.length).toBeGreaterThanOrEqual(100);
    expect(m2.every((o) => o.location === 'm-2')).toBe(true);
    const settled = await pageAll(t, 'location=m-0&from=2026-11-20T08:00:00%2B08:00&to=2026-11-20T09:00:00%2B08:00', 10);
    expect(settled.every((o) => o.location === 'm-0' && o.trade_status === 'settled')).toBe(true);
    expect((await t.get('/ucp/v1/orders?location=m-0&limit=1').expect(200)).body.orders[0].location_name).toBe('Zero');
    expect((await t.get('/ucp/v1/orders?location=nowhere').expect(200)).body.orders).toEqual([]);
    expectError(await t.get('/ucp/v1/orders?location=bad%20id'), 400, 'invalid');
  });

  it('makes updated_from/updated_to work: orders changed in the window, oldest change first', async () => {
    // updatedAt = takenAt + 30 min for 3 of 4 orders; window [08:40, 08:50) +08:00 = takenAt 08:10..08:20 = orders 20..39
    const list = await pageAll(t, `trade_status=all&updated_from=${encodeURIComponent('2026-11-20T08:40:00+08:00')}&updated_to=${encodeURIComponent('2026-11-20T08:50:00+08:00')}`, 6);
    const expected = Array.from({ length: 20 }, (_, i) => 20 + i).filter((i) => i % 4 !== 0).map((i) => `L-${String(i).padStart(3, '0')}`);
    expect(list.map((o) => o.id).sort()).toEqual(expected);
    const times = list.map((o) => Date.parse(o.updated_at!));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expectError(await t.get('/ucp/v1/orders?updated_from=later'), 400, 'invalid');
    // A cursor belongs to its listing.
    const taken = await t.get('/ucp/v1/orders?limit=1').expect(200);
    expectError(await t.get(`/ucp/v1/orders?updated_from=2026-11-20T08:40:00Z&cursor=${taken.body.pagination.cursor}`), 400, 'invalid');
  });

  it('refuses a cursor it did not issue', async () => {
    for (const bad of ['abc', 'eyJ4IjoxfQ', Buffer.from('["taken","2026-01-01","x"]').toString('base64url')]) {
      expectError(await t.get(`/ucp/v1/orders?cursor=${bad}`), 400, 'invalid');
    }
    expectError(await t.get('/ucp/v1/orders?kind=rental'), 400, 'invalid');
  });

  it('GET /orders/{id} returns the sale, 404 for an unknown id', async () => {
    const res = await t.get('/ucp/v1/orders/L-010').expect(200);
    expectEnvelope(res.body, 'success');
    expect(res.body).toMatchObject({ id: 'L-010', kind: 'sale', location: 'm-1', trade_status: 'pending_review', currency: 'CNY' });
    expect(res.body.permalink_url).toMatch(/\/ucp\/v1\/orders\/L-010$/);
    expectError(await t.get('/ucp/v1/orders/NO-SUCH-ORDER'), 404, 'not_found');
  });

  it('renders each order of a page exactly as GET /orders/{id} does; pages have no ETag and a malformed UCP-Agent still warns', async () => {
    const page = await t.get('/ucp/v1/orders?kind=sale&trade_status=all&limit=100').set('UCP-Agent', 'profile=not-a-string').expect(200);
    expect(page.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(page.headers['content-length'])).toBe(Buffer.byteLength(page.text));
    expect(page.headers.etag).toBeUndefined(); // issue 13: no hashing of large pages
    expect(page.body.messages.map((m: { code: string }) => m.code)).toContain('ucp_agent_malformed');
    for (const o of page.body.orders.slice(0, 25) as Order[]) {
      const one = await t.get(`/ucp/v1/orders/${encodeURIComponent(o.id)}`).expect(200);
      const { ucp: _u, messages: _m, ...order } = one.body as Record<string, unknown>;
      expect(JSON.stringify(o)).toBe(JSON.stringify(order));
    }
  });

  it('kind=purchase is answered by the purchase order reader, not by the sales ledger', async () => {
    const res = await t.get('/ucp/v1/orders?kind=purchase').expect(200);
    expect(Array.isArray(res.body.orders)).toBe(true);
    expect(res.body.orders.some((o: { kind: string }) => o.kind === 'sale')).toBe(false);
  });
});
