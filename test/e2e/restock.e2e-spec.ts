import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { RESTOCK_FOLLOW_UP_INTERVAL } from '../../src/restock/restock-follow-up.job';
import { RestockFollowUpService } from '../../src/restock/restock-follow-up.service';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * POST /locations/{id}/restock against real HTTP partners: every rule of the spec, the reference idempotency,
 * the kill switch (the partner records no request), partner failures, and the follow-up of binding orders that
 * feeds the measured lead time.
 */
jest.setTimeout(60_000);

const ACME_TOKEN = 'acme-partner-secret-81f3';
const BETA_TOKEN = 'beta-partner-secret-27c1';

describe('restock requests to machine platforms', () => {
  let t: TestApp;
  let acme: FakePartner;
  let beta: FakePartner;
  let ds: DataSource;
  const restockCalls = (p: FakePartner) => p.requestsTo('POST /restock').length;
  const send = (loc: string, body: unknown) => t.post(`/ucp/v1/locations/${loc}/restock`, body);
  const rec = (reference: string, extra: Record<string, unknown> = {}) => ({
    reference,
    line_items: [{ item: { id: 'acme-machine:A1' }, quantity: 6, reason: 'below reorder point' }],
    ...extra,
  });

  beforeAll(async () => {
    acme = await startFakePartner({ token: ACME_TOKEN });
    beta = await startFakePartner({ token: BETA_TOKEN });
    t = await startTestApp({
      env: {
        SERVICE_HTTP_VENDORS: JSON.stringify([
          {
            namespace: 'acme-machine',
            baseUrl: acme.url,
            token: ACME_TOKEN,
            capabilities: ['inventory', 'ledger', 'replenishment.recommend', 'replenishment.order'],
          },
          // beta takes binding orders only, never recommendations.
          { namespace: 'beta-machine', baseUrl: beta.url, token: BETA_TOKEN, capabilities: ['inventory', 'ledger', 'replenishment.order'] },
        ]),
        SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine',
      },
    });
    ds = t.app.get(DataSource);
    for (const [id, ns] of [
      ['M-1', 'acme-machine'],
      ['M-2', 'acme-machine'],
      ['B-1', 'beta-machine'],
    ]) {
      await ds.query(`INSERT INTO locations (id, namespace, name) VALUES ($1, $2, $3)`, [id, ns, `machine ${id}`]);
    }
    await ds.query(
      `INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock, capacity)
       VALUES ('M-1-A1', 'M-1', 'acme-machine', 'A1', 'acme-machine:A1', 'Cola', 350, 2, 12)`,
    );
  });
  afterAll(async () => {
    await t.close();
    await acme.close();
    await beta.close();
  });

  it('sends a recommendation (binding false, with a reason) and answers location, reference, binding, accepted', async () => {
    const res = await send('M-1', rec('ref-rec-1')).expect(200);
    expect(res.body).toMatchObject({ location: 'M-1', reference: 'ref-rec-1', binding: false, accepted: 1 });
    expect(res.body.external_ref).toBeUndefined();
    const [call] = acme.requestsTo('POST /restock');
    expect(call.body).toEqual({ ref: 'ref-rec-1', locationId: 'M-1', binding: false, lines: [{ vendorSku: 'A1', quantity: 6, reason: 'below reorder point' }] });
    expect(call.headers.authorization).toBe(`Bearer ${ACME_TOKEN}`);
    expect(call.path).not.toContain(ACME_TOKEN);
  });

  it('the same reference never creates a second platform request; another request under it is 409', async () => {
    const before = restockCalls(acme);
    const again = await send('M-1', rec('ref-rec-1')).expect(200);
    expect(again.body).toMatchObject({ location: 'M-1', reference: 'ref-rec-1', binding: false, accepted: 1 });
    expect(restockCalls(acme)).toBe(before);
    expectError(await send('M-1', rec('ref-rec-1', { line_items: [{ item: { id: 'acme-machine:A1' }, quantity: 7, reason: 'x' }] })), 409, 'reference_conflict');
    expectError(await send('M-2', rec('ref-rec-1')), 409, 'reference_conflict');
    expect(restockCalls(acme)).toBe(before);
  });

  it('two concurrent requests under one new reference reach the platform once', async () => {
    const before = restockCalls(acme);
    acme.fault('POST /restock', { delayMs: 300, times: 1 });
    const [a, b] = await Promise.all([send('M-1', rec('ref-race')), send('M-1', rec('ref-race'))]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    expect(restockCalls(acme)).toBe(before + 1);
    expect((await send('M-1', rec('ref-race')).expect(200)).body.accepted).toBe(1);
    expect(restockCalls(acme)).toBe(before + 1);
  });

  it('validates every rule of the request before calling anyone', async () => {
    const before = restockCalls(acme);
    const line = (extra: Record<string, unknown>) => ({ item: { id: 'acme-machine:A1' }, quantity: 2, reason: 'r', ...extra });
    let res = await send('M-1', { reference: 'v1', line_items: [{ item: { id: 'acme-machine:A1' }, quantity: 2 }] });
    expectError(res, 400, 'missing');
    expect(res.body.messages[0].path).toBe('$.line_items[0].reason');
    expectError(await send('M-1', { reference: 'v1', line_items: [line({ reason: 'x'.repeat(101) })] }), 400, 'invalid');
    await send('M-1', { reference: 'v-100', line_items: [line({ reason: 'x'.repeat(100) })] }).expect(200);
    expectError(await send('M-1', { reference: 'v1', line_items: [line({ quantity: 0 })] }), 400, 'invalid');
    expectError(await send('M-1', { reference: 'v1', line_items: [line({ quantity: 1.5 })] }), 400, 'invalid');
    expectError(await send('M-1', { reference: 'v1', line_items: [line({ quantity: '2' })] }), 400, 'invalid');
    expectError(await send('M-1', { reference: 'v1', line_items: [] }), 400, 'invalid');
    expectError(await send('M-1', { line_items: [line({})] }), 400, 'missing');
    expectError(await send('M-1', { reference: 'v1', binding: 'true', line_items: [line({})] }), 400, 'invalid');
    res = await send('M-1', { reference: 'v1', line_items: [line({}), line({ item: { id: 'beta-machine:A1' } })] });
    expectError(res, 400, 'namespace_mismatch');
    expect(res.body.messages[0].path).toBe('$.line_items[1].item.id');
    expectError(await send('M-1', { reference: 'v1', line_items: [line({ item: { id: 'acme-supply:A1' } })] }), 400, 'namespace_mismatch');
    expectError(await send('M-1', { reference: 'v1', line_items: [line({ item: { id: 'no colon' } })] }), 400, 'invalid');
    expectError(await send('NOPE', { reference: 'v1', line_items: [line({})] }), 404, 'not_found');
    expectError(await send('bad%20id!', { reference: 'v1', line_items: [line({})] }), 400, 'invalid');
    expect(restockCalls(acme)).toBe(before + 1); // only the 100-character reason went out
  });

  it('a form the platform does not take answers 400 namespace_unsupported and calls nobody', async () => {
    const res = await send('B-1', { reference: 'b-rec', line_items: [{ item: { id: 'beta-machine:X' }, quantity: 1, reason: 'r' }] });
    expectError(res, 400, 'namespace_unsupported');
    expect(restockCalls(beta)).toBe(0);
    const ok = await send('B-1', { reference: 'b-ord', binding: true, line_items: [{ item: { id: 'beta-machine:X' }, quantity: 1 }] }).expect(200);
    expect(ok.body).toMatchObject({ binding: true, accepted: 1, external_ref: expect.stringMatching(/^FR-/) });
    expect(restockCalls(beta)).toBe(1);
  });

  it('kill switch engaged: refused with kill_switch_engaged, the platform records no request, nothing is claimed', async () => {
    const before = acme.requests.length;
    await t.put('/ucp/v1/admin/kill-switch', { engaged: true, reason: 'freeze' }).expect(200);
    try {
      expectError(await send('M-1', rec('ref-ks')), 409, 'kill_switch_engaged');
      expectError(await send('M-1', rec('ref-ks-2', { binding: true })), 409, 'kill_switch_engaged');
      expect(acme.requests.length).toBe(before);
    } finally {
      await t.put('/ucp/v1/admin/kill-switch', { engaged: false, reason: 'thaw' }).expect(200);
    }
    expect((await send('M-1', rec('ref-ks')).expect(200)).body.accepted).toBe(1);
  });

  it('partner failures are 502 and never retried automatically; the same reference can be sent again by hand', async () => {
    const before = restockCalls(acme);
    acme.fault('POST /restock', { status: 503, times: 1 });
    expectError(await send('M-1', rec('ref-fail')), 502, 'upstream_unreachable');
    expect(restockCalls(acme)).toBe(before + 1);
    acme.fault('POST /restock', { status: 400, body: { ok: false, reason: 'slot locked' }, times: 1 });
    expectError(await send('M-1', rec('ref-fail')), 502, 'upstream_rejected');
    expect(restockCalls(acme)).toBe(before + 2);
    await send('M-1', rec('ref-fail')).expect(200);
    expect(restockCalls(acme)).toBe(before + 3);
    expect(t.logs.join('\n')).not.toContain(ACME_TOKEN);
  });

  it('a binding order returns external_ref, is followed to completion and feeds the measured lead time', async () => {
    const order = await send('M-1', { reference: 'ord-1', binding: true, line_items: [{ item: { id: 'acme-machine:A1' }, quantity: 10 }] }).expect(200);
    expect(order.body).toMatchObject({ location: 'M-1', reference: 'ord-1', binding: true, accepted: 1, external_ref: expect.stringMatching(/^FR-/) });

    const planBefore = await t.get('/ucp/v1/replenishment/plan?fulfiller=machine_restock').expect(200);
    const slotBefore = planBefore.body.slots.find((s: { slot_id: string }) => s.slot_id === 'M-1-A1');
    expect(slotBefore.lead_time).toEqual({ days: 2, sigma_days: 0, source: 'stated', samples: 0, fulfiller: 'acme-machine' });

    const followUp = t.app.get(RestockFollowUpService);
    // Still pending at the platform: nothing completes.
    expect(await followUp.followUp()).toMatchObject({ completed: 0 });

    await ds.query(`UPDATE restock_orders SET sent_at = now() - interval '36 hours' WHERE reference = 'ord-1'`);
    acme.state.restocks['ord-1'].status = {
      ref: 'ord-1',
      status: 'completed',
      delivered: [{ vendorSku: 'A1', quantity: 10 }],
      completedAt: Date.now(),
      externalRef: order.body.external_ref,
    };
    const beforeGets = acme.requestsTo('GET /restock/:ref').length;
    expect(await followUp.followUp()).toMatchObject({ completed: 1 });
    expect(acme.requestsTo('GET /restock/:ref').length).toBeGreaterThan(beforeGets);
    const row = (await ds.query(`SELECT status, delivered, completed_at FROM restock_orders WHERE reference = 'ord-1'`))[0];
    expect(row.status).toBe('completed');
    expect(row.delivered).toEqual([{ vendorSku: 'A1', quantity: 10 }]);

    const plan = await t.get('/ucp/v1/replenishment/plan?fulfiller=machine_restock').expect(200);
    const slot = plan.body.slots.find((s: { slot_id: string }) => s.slot_id === 'M-1-A1');
    expect(slot.lead_time).toEqual({ days: 1.5, sigma_days: 0, source: 'measured', samples: 1, fulfiller: 'acme-machine' });
    expect(slot).toMatchObject({ unit: 'EA', cost_estimate: null });
    const events = await t.get('/ucp/v1/events?kind=restock.completed').expect(200);
    expect(events.body.events[0]).toMatchObject({ location: 'M-1' });

    // Completed orders are no longer followed.
    const ord1Gets = () => acme.requestsTo('GET /restock/:ref').filter((r) => r.path === '/restock/ord-1').length;
    const gets = ord1Gets();
    await followUp.followUp();
    expect(ord1Gets()).toBe(gets);
  });

  it('the scheduled follow-up does nothing when this instance does not run the scheduler', async () => {
    await send('M-1', { reference: 'ord-2', binding: true, line_items: [{ item: { id: 'acme-machine:A1' }, quantity: 1 }] }).expect(200);
    const before = acme.requests.length;
    expect(t.config.schedulerEnabled).toBe(false);
    // With the scheduler off the follow-up's interval is not registered, so it never runs on its own.
    expect(t.app.get(SchedulerRegistry).doesExist('interval', RESTOCK_FOLLOW_UP_INTERVAL)).toBe(false);
    expect(acme.requests.length).toBe(before);
  });

  it('a follow-up that cannot read the platform keeps the order open', async () => {
    acme.fault('GET /restock/:ref', { status: 500 });
    try {
      const r = await t.app.get(RestockFollowUpService).followUp();
      expect(r.failed).toBeGreaterThan(0);
      const row = (await ds.query(`SELECT status FROM restock_orders WHERE reference = 'ord-2'`))[0];
      expect(row.status).toBe('pending');
    } finally {
      acme.clearFaults();
    }
  });
});
