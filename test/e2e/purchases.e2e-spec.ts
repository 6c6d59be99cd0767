import { Client } from 'pg';
import { PurchaseOrdersService } from '../../src/purchases/purchase-orders.service';
import { expectEnvelope, expectError } from '../support/envelope';
import { TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { readySession, supplierApp } from '../support/money-fixtures';

describe('purchase orders', () => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    t = await supplierApp(p);
    for (const id of ['PUR-1', 'PUR-2', 'PUR-3']) {
      await readySession(t, id);
      expect((await t.post(`/ucp/v1/checkout-sessions/${id}/complete`, { confirm: true })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });

  it('GET /orders/{id}: the order shape with supplier_status and logistics, read from GET /orders/{ref}', async () => {
    p.state.orders['PUR-1'].status = {
      ref: 'PUR-1',
      state: 'arrived',
      rawStatus: 'SIGNED',
      logistics: [{ carrier: 'SF', trackingNo: 'SF123', status: 'delivered', updatedAt: Date.UTC(2026, 10, 22, 2, 0, 0) }],
    };
    // The status read at completion is fresh for a short while; the scheduled job refreshes open orders.
    await t.app.get(PurchaseOrdersService).refreshOpen();
    const res = await t.get('/ucp/v1/orders/PUR-1');
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 'success');
    const order = res.body.order ?? res.body;
    expect(order).toMatchObject({
      id: 'PUR-1',
      kind: 'purchase',
      checkout_id: 'PUR-1',
      currency: 'CNY',
      supplier_status: { code: 'SIGNED', mapped: 'arrived' },
      logistics: [{ carrier: 'SF', tracking_number: 'SF123', status: 'delivered', updated_at: '2026-11-22T10:00:00.000+08:00' }],
    });
    expect(order.line_items[0]).toMatchObject({ status: 'fulfilled', quantity: { original: 2, total: 2, fulfilled: 2 } });
    expect(order.totals).toContainEqual({ type: 'total', amount: 9600 });
    expect(p.requestsTo('GET /orders/:ref').length).toBeGreaterThanOrEqual(1);
  });

  it('GET /orders?kind=purchase lists completed sessions newest first with keyset pagination', async () => {
    const first = await t.get('/ucp/v1/orders?kind=purchase&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.orders.map((o: { id: string }) => o.id)).toEqual(['PUR-3', 'PUR-2']);
    expect(first.body.pagination.has_next_page).toBe(true);
    const next = await t.get(`/ucp/v1/orders?kind=purchase&limit=2&cursor=${first.body.pagination.cursor}`);
    expect(next.body.orders.map((o: { id: string }) => o.id)).toEqual(['PUR-1']);
    expect(next.body.pagination.has_next_page).toBe(false);
  });

  it('a supplier outage on refresh keeps the stored status and says so; never an empty list', async () => {
    await t.app.get(PurchaseOrdersService).refreshOpen(); // marks them checked now
    p.fault('GET /orders/:ref', { status: 503 });
    const c = new Client({ connectionString: t.databaseUrl! });
    await c.connect();
    await c.query(`UPDATE checkout_sessions SET supplier_checked_at = now() - interval '1 hour'`);
    await c.end();
    try {
      const list = await t.get('/ucp/v1/orders?kind=purchase');
      expect(list.status).toBe(200);
      expect(list.body.orders).toHaveLength(3);
      const stale = list.body.messages.filter((m: { code: string }) => m.code === 'stale_data');
      expect(stale.length).toBe(2); // PUR-1 arrived (closed); PUR-2 and PUR-3 are open and could not be refreshed
      const n = await t.app.get(PurchaseOrdersService).refreshOpen();
      expect(n).toBe(0);
      const one = await t.get('/ucp/v1/orders/PUR-2');
      expect(one.status).toBe(200);
      expect((one.body.order ?? one.body).supplier_status.mapped).toBe('ordered');
    } finally {
      p.clearFaults();
    }
  });

  it('a session that is not completed is not a purchase order', async () => {
    await readySession(t, 'PUR-open');
    expectError(await t.get('/ucp/v1/orders/PUR-open'), 404, 'not_found');
  });
});
