import { expectError } from '../support/envelope';
import { TestApp } from '../support/test-app';
import { machineApp, slotRow } from '../support/money-fixtures';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';

/** Issue 29: amounts no agent can misread. A price below its purchase cost or cut by more than 90% needs the line's go-ahead. */
describe('price floor and the answer of a parked change', () => {
  let m: FakePartner;
  let s: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    m = await startFakePartner({ token: 'm-token' });
    s = await startFakePartner({ token: 's-token' });
    s.state.catalog = [{ vendorSku: 'COLA', title: 'Cola 330ml', packSize: 24, packPriceFen: 7200, eachPriceFen: 300, stock: 500 }];
    t = await machineApp(m, {
      SERVICE_HTTP_VENDORS: JSON.stringify([
        { namespace: 'acme-machine', baseUrl: m.url, token: m.token, capabilities: ['inventory', 'ledger', 'pricing'] },
        { namespace: 'acme-supply', baseUrl: s.url, token: s.token, capabilities: ['catalog', 'orders'] },
      ]),
      SERVICE_DEFAULT_SUPPLY_NAMESPACE: 'acme-supply',
    });
    await t.put('/ucp/v1/skus/acme-machine%3AA1/aliases', { aliases: [{ sku_id: 'acme-supply:COLA' }] }).expect(200);
  });
  afterAll(async () => {
    await t.close();
    await m.close();
    await s.close();
  });
  const put = (prices: unknown[]) => t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices });

  it('350 -> 4 fen (meant as ¥4) is refused at its amount and nothing changes; allow_deep_cut lets it through', async () => {
    const res = await put([{ item: { id: 'acme-machine:C3' }, price: { amount: 4, currency: 'CNY' } }]);
    expectError(res, 400, 'invalid');
    expect(res.body.messages[0]).toMatchObject({ path: '$.prices[0].price.amount', severity: 'recoverable' });
    expect(res.body.messages[0].content).toMatch(/more than 90%.*allow_deep_cut/);
    expect(m.requestsTo('POST /prices')).toHaveLength(0);
    expect(await slotRow(t.databaseUrl!, 'loc-1-C3')).toEqual({ price_fen: '1000', price_locked: false });
  });

  it('below the purchase cost the supply resolution knows (COLA, 300 fen each) needs allow_below_cost', async () => {
    const below = await put([{ item: { id: 'acme-machine:A1' }, price: { amount: 290, currency: 'CNY' } }]);
    expectError(below, 400, 'invalid');
    expect(below.body.messages[0].content).toMatch(/below the purchase cost of 300 fen/);
    expect(m.requestsTo('POST /prices')).toHaveLength(0);
    // At cost is no mistake; a good with no known cost (B2) has no cost floor (within the cap, both go through).
    const ok = await put([
      { item: { id: 'acme-machine:A1' }, price: { amount: 290, currency: 'CNY' }, allow_below_cost: true },
      { item: { id: 'acme-machine:B2' }, price: { amount: 450, currency: 'CNY' } },
    ]);
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('updated');
    expect(ok.body.pending).toEqual([]);
    expect(ok.body.updated.map((u: { price: { amount: number } }) => u.price.amount)).toEqual([290, 450]);
  });

  it('a change parked for approval answers status pending_approval with the approval id', async () => {
    const res = await put([{ item: { id: 'acme-machine:C3' }, price: { amount: 2000, currency: 'CNY' } }]);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('pending_approval');
    expect(res.body.updated).toEqual([]);
    expect(res.body.pending).toEqual([{ item: { id: 'acme-machine:C3' }, approval_id: expect.any(String), previous: { amount: 1000, currency: 'CNY' }, price: { amount: 2000, currency: 'CNY' } }]);
    expect(res.body.messages[0].content).toContain(res.body.pending[0].approval_id);
    // A second request on the locked line is answered with the same approval, and a line within the cap goes through.
    const again = await put([
      { item: { id: 'acme-machine:C3' }, price: { amount: 1100, currency: 'CNY' } },
      { item: { id: 'acme-machine:B2' }, price: { amount: 500, currency: 'CNY' } },
    ]);
    expect(again.body.status).toBe('partly_pending_approval');
    expect(again.body.pending[0].approval_id).toBe(res.body.pending[0].approval_id);
  });
});
