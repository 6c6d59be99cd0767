import { expectError } from '../support/envelope';
import { startTestApp } from '../support/test-app';
import { startFakePartner } from '../partners/fake-partner-server';
import { readySession, seedMachine } from '../support/money-fixtures';

/**
 * Kill switch: no money path reaches a partner (complete, price update, approval execution); reads keep working.
 * Run place and restock are the replenishment engineer's (they test them through KillSwitchService).
 */
describe('kill switch and guard rules', () => {
  it('engaged at run time: complete, price update and approval execution call no partner; reads work; events recorded', async () => {
    const p = await startFakePartner({ token: 'tok' });
    p.state.catalog = [{ vendorSku: 'COLA', title: 'Cola', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 500 }];
    p.state.inventory['loc-1'] = [{ vendorSku: 'A1', title: 'Cola', priceFen: 350, stock: 4 }];
    const t = await startTestApp({
      env: {
        SERVICE_ENV: 'production',
        SERVICE_HTTP_VENDORS: JSON.stringify([
          { namespace: 'acme-supply', baseUrl: p.url, token: 'tok', capabilities: ['catalog', 'orders'] },
          { namespace: 'acme-machine', baseUrl: p.url, token: 'tok', capabilities: ['inventory', 'ledger', 'pricing'] },
        ]),
        SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine',
      },
    });
    try {
      await seedMachine(t.databaseUrl!, 'loc-1', 'acme-machine', [{ sku: 'A1', price: 350 }]);
      await readySession(t, 'KS-1');
      const parked = await t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices: [{ item: { id: 'acme-machine:A1' }, price: { amount: 9000, currency: 'CNY' } }] });
      const approvalId = parked.body.actions[0].approval_id;
      const partnerCallsBefore = p.requests.filter((r) => r.method === 'POST').length;

      const engage = await t.put('/ucp/v1/admin/kill-switch', { engaged: true, reason: 'supplier fraud alert' });
      expect(engage.status).toBe(200);
      expect(engage.body.kill_switch).toMatchObject({ engaged: true, reason: 'supplier fraud alert' });

      const c = await t.post('/ucp/v1/checkout-sessions/KS-1/complete', { confirm: true });
      expectError(c, 409, 'kill_switch_engaged');
      expect(c.body.status).toBe('ready_for_complete');
      const pr = await t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices: [{ item: { id: 'acme-machine:A1' }, price: { amount: 360, currency: 'CNY' } }] });
      expectError(pr, 409, 'kill_switch_engaged');
      const ap = await t.post(`/ucp/v1/approvals/${approvalId}`, { approved: true });
      expectError(ap, 409, 'kill_switch_engaged');
      expect(p.requests.filter((r) => r.method === 'POST')).toHaveLength(partnerCallsBefore);

      // Reads are never blocked; the parked approval is still pending, the session unchanged.
      expect((await t.get(`/ucp/v1/approvals/${approvalId}`)).body.approval.status).toBe('pending');
      expect((await t.get('/ucp/v1/checkout-sessions/KS-1')).body.status).toBe('ready_for_complete');
      expect((await t.get('/ucp/v1/admin/guards')).status).toBe(200);
      const ks = await t.get('/ucp/v1/events?kind=kill_switch');
      expect(ks.body.events[0]).toMatchObject({ kind: 'kill_switch', reasoning: 'supplier fraud alert' });

      await t.put('/ucp/v1/admin/kill-switch', { engaged: false, reason: 'cleared' });
      const done = await t.post('/ucp/v1/checkout-sessions/KS-1/complete', { confirm: true });
      expect(done.status).toBe(200);
      expect(p.requestsTo('POST /orders')).toHaveLength(1);
      expectError(await t.put('/ucp/v1/admin/kill-switch', { engaged: 'yes', reason: 'x' }), 400, 'invalid');
    } finally {
      await t.close();
      await p.close();
    }
  });

  it('SERVICE_KILL_SWITCH=on engages it at boot whatever the stored rules say', async () => {
    const p = await startFakePartner({ token: 'tok' });
    p.state.catalog = [{ vendorSku: 'COLA', title: 'Cola', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 500 }];
    const t = await startTestApp({
      env: {
        SERVICE_ENV: 'production',
        SERVICE_KILL_SWITCH: 'on',
        SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: 'acme-supply', baseUrl: p.url, token: 'tok', capabilities: ['catalog', 'orders'] }]),
      },
    });
    try {
      expect((await t.get('/ucp/v1/admin/guards')).body.guards.killSwitch).toBe(true);
      await readySession(t, 'KS-boot');
      expectError(await t.post('/ucp/v1/checkout-sessions/KS-boot/complete', { confirm: true }), 409, 'kill_switch_engaged');
      expect(p.requestsTo('POST /orders')).toHaveLength(0);
    } finally {
      await t.close();
      await p.close();
    }
  });

  it.each([
    ['malformed JSON', { SERVICE_GUARDS: '{"budget":' }],
    ['a bad shape', { SERVICE_GUARDS: JSON.stringify({ budget: { perOrderFen: 1.5, dailyFen: 1, monthlyFen: 1 }, priceCapPerItem: { maxMoveFen: 1, maxMovePercent: 1 } }) }],
    ['an unreadable file', { SERVICE_GUARDS: undefined, SERVICE_GUARDS_FILE: '/nonexistent/guards.json' }],
  ])('guard rules with %s: money writes are 503 guard_unverifiable, reads work; valid rules restore them', async (_name, env) => {
    const p = await startFakePartner({ token: 'tok' });
    p.state.catalog = [{ vendorSku: 'COLA', title: 'Cola', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 500 }];
    const t = await startTestApp({
      db: 'embedded',
      env: {
        SERVICE_ENV: 'production',
        SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: 'acme-supply', baseUrl: p.url, token: 'tok', capabilities: ['catalog', 'orders'] }]),
        ...env,
      },
    });
    try {
      const created = await readySession(t, 'G-1');
      expect(created.body.status).toBe('incomplete');
      expectError(await t.post('/ucp/v1/checkout-sessions/G-1/complete', { confirm: true }), 503, 'guard_unverifiable');
      expect(p.requestsTo('POST /orders')).toHaveLength(0);
      const view = await t.get('/ucp/v1/admin/guards');
      expect(view.status).toBe(200);
      expect(view.body.verifiable).toBe(false);
      expect((await t.get('/ucp/v1/checkout-sessions/G-1')).status).toBe(200);
      expectError(await t.put('/ucp/v1/admin/guards', { budget: 'lots' }), 400, 'invalid');
      const fixed = await t.put('/ucp/v1/admin/guards', {
        budget: { perOrderFen: 100000, dailyFen: 300000, monthlyFen: 3000000 },
        priceCapPerItem: { maxMoveFen: 200, maxMovePercent: 25 },
        probationVendors: [],
        hardNoGo: { vendors: [], skus: [] },
      });
      expect(fixed.body.verifiable).toBe(true);
      expect((await t.get('/ucp/v1/events?kind=guard.changed')).body.events.length).toBeGreaterThanOrEqual(1);
      const done = await t.post('/ucp/v1/checkout-sessions/G-1/complete', { confirm: true });
      expect(done.status).toBe(200);
      expect(p.requestsTo('POST /orders')).toHaveLength(1);
    } finally {
      await t.close();
      await p.close();
    }
  }, 60000);
});
