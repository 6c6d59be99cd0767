import { Client } from 'pg';
import { expectEnvelope, expectError } from '../support/envelope';
import { TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { readySession, supplierApp } from '../support/money-fixtures';

/**
 * GET /orders/{id} of a purchase order reads the supplier's current state (docs/adr/0023-purchase-order-reads.md);
 * the stored copy is served only when the supplier cannot be read, with a `stale_data` warning.
 */
describe('purchase order: current-state read', () => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    t = await supplierApp(p);
    await readySession(t, 'CUR-1');
    expect((await t.post('/ucp/v1/checkout-sessions/CUR-1/complete', { confirm: true })).status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });
  afterEach(() => p.clearFaults());

  const staleOf = (body: { messages: { code: string; severity: string; path: string }[] }) => body.messages.filter((m) => m.code === 'stale_data');

  it('a change at the supplier a moment after completion shows at once (no cached copy)', async () => {
    const before = p.requestsTo('GET /orders/:ref').length;
    p.state.orders['CUR-1'].status = { ref: 'CUR-1', state: 'arrived', rawStatus: 'SIGNED', logistics: [] };
    const res = await t.get('/ucp/v1/orders/CUR-1');
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 'success');
    expect(res.body.supplier_status).toMatchObject({ code: 'SIGNED', mapped: 'arrived' });
    expect(staleOf(res.body)).toEqual([]);
    expect(p.requestsTo('GET /orders/:ref').length).toBe(before + 1);
  });

  it('each read asks the supplier again', async () => {
    const before = p.requestsTo('GET /orders/:ref').length;
    await t.get('/ucp/v1/orders/CUR-1');
    await t.get('/ucp/v1/orders/CUR-1');
    expect(p.requestsTo('GET /orders/:ref').length).toBe(before + 2);
  });

  it.each([
    ['a 503', { status: 503 }],
    ['a dropped connection', { destroy: true }],
    ['a malformed answer', { rawBody: '{"ref":' }],
  ])('the supplier cannot be read (%s): the stored status with a stale_data warning', async (_name, fault) => {
    p.fault('GET /orders/:ref', fault);
    const res = await t.get('/ucp/v1/orders/CUR-1');
    expect(res.status).toBe(200);
    expect(res.body.supplier_status.mapped).toBe('arrived');
    const stale = staleOf(res.body);
    expect(stale).toHaveLength(1);
    expect(stale[0]).toMatchObject({ severity: 'warning', path: '$.supplier_status' });
  });

  it('the supplier cannot be read and nothing is stored: 502 upstream_unreachable', async () => {
    const c = new Client({ connectionString: t.databaseUrl! });
    await c.connect();
    await c.query(`UPDATE checkout_sessions SET supplier_state = NULL, supplier_raw_status = NULL WHERE id = 'CUR-1'`);
    await c.end();
    p.fault('GET /orders/:ref', { status: 503 });
    expectError(await t.get('/ucp/v1/orders/CUR-1'), 502, 'upstream_unreachable');
  });
});
