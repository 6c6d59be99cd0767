import { startFakePartner } from '../partners/fake-partner-server';
import { expectError } from '../support/envelope';
import { readySession, seedMachine, supplierApp } from '../support/money-fixtures';

/**
 * Issue 5's proof in one test: with the kill switch engaged, no money path (checkout complete, price update, approval
 * execution, run place, restock) reaches a partner. Partners are real HTTP servers recording every request; released,
 * the same calls do reach them (so the test can fail).
 */
describe('kill switch across every money path', () => {
  it('engaged: complete, price update, approval execution, run place and restock reach no partner', async () => {
    const supplier = await startFakePartner({ token: 'sup-token' });
    const machine = await startFakePartner({ token: 'mach-token' });
    const t = await supplierApp(supplier, {
      SERVICE_HTTP_VENDORS: JSON.stringify([
        { namespace: 'acme-supply', baseUrl: supplier.url, token: 'sup-token', capabilities: ['catalog', 'orders'] },
        {
          namespace: 'acme-machine',
          baseUrl: machine.url,
          token: 'mach-token',
          capabilities: ['inventory', 'ledger', 'pricing', 'replenishment.recommend', 'replenishment.order'],
        },
      ]),
      SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine',
    });
    const writes = () => [...supplier.requests, ...machine.requests].filter((r) => r.method !== 'GET').length;
    try {
      await seedMachine(t.databaseUrl!, 'loc-1', 'acme-machine', [{ sku: 'A1', price: 350 }]);
      await readySession(t, 'KS-ALL');
      const parked = await t.put('/ucp/v1/locations/loc-1/prices', {
        confirm: true,
        prices: [{ item: { id: 'acme-machine:A1' }, price: { amount: 9000, currency: 'CNY' } }],
      });
      expect(parked.status).toBe(200);
      const approvalId = parked.body.actions[0].approval_id as string;
      const run = await t.post('/ucp/v1/replenishment/runs?fulfiller=machine_restock');
      expect(run.status).toBe(201);
      expect(run.body.run?.lines?.length ?? run.body.lines?.length).toBeGreaterThan(0);
      const runId = (run.body.run?.id ?? run.body.id) as string;
      const before = writes();

      await t.put('/ucp/v1/admin/kill-switch', { engaged: true, reason: 'freeze every write' }).expect(200);
      expectError(await t.post('/ucp/v1/checkout-sessions/KS-ALL/complete', { confirm: true }), 409, 'kill_switch_engaged');
      expectError(
        await t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices: [{ item: { id: 'acme-machine:A1' }, price: { amount: 360, currency: 'CNY' } }] }),
        409,
        'kill_switch_engaged',
      );
      expectError(await t.post(`/ucp/v1/approvals/${approvalId}`, { approved: true }), 409, 'kill_switch_engaged');
      expectError(await t.post(`/ucp/v1/replenishment/runs/${runId}/place`), 409, 'kill_switch_engaged');
      expectError(
        await t.post('/ucp/v1/locations/loc-1/restock', {
          reference: 'ks-restock-1',
          binding: true,
          line_items: [{ item: { id: 'acme-machine:A1' }, quantity: 3 }],
        }),
        409,
        'kill_switch_engaged',
      );
      expect(writes()).toBe(before);

      // Released, the same paths reach the partners again.
      await t.put('/ucp/v1/admin/kill-switch', { engaged: false, reason: 'all clear' }).expect(200);
      expect((await t.post('/ucp/v1/checkout-sessions/KS-ALL/complete', { confirm: true })).status).toBe(200);
      expect((await t.post('/ucp/v1/locations/loc-1/restock', { reference: 'ks-restock-1', binding: true, line_items: [{ item: { id: 'acme-machine:A1' }, quantity: 3 }] })).status).toBe(200);
      expect(supplier.requestsTo('POST /orders')).toHaveLength(1);
      expect(machine.requestsTo('POST /restock')).toHaveLength(1);
    } finally {
      await t.close();
      await supplier.close();
      await machine.close();
    }
  });
});
