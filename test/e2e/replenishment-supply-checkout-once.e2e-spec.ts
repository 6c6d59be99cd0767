import { expectError } from '../support/envelope';
import { startTestApp } from '../support/test-app';
import { ordersPosted } from '../support/money-fixtures';
import { sql } from '../support/sql';
import { ACME, BETA, describeSupplyCheckout, Json } from './replenishment-supply-checkout.suite';

/**
 * Replenishment runs placed by supply checkout (replenishment-supply-checkout.suite.ts): one supplier order per
 * purchase order whatever happens during place: a supplier timing out (its order taken or never received) settled by
 * reading GET /orders/{ref}, and 20 concurrent places on two instances; the place and its guards are
 * replenishment-supply-checkout-place.e2e-spec.ts.
 */
describeSupplyCheckout('replenishment runs placed by supply checkout (production): one supplier order per purchase order', (c) => {
  it('a supplier timing out during place: no second order; recovery reads GET /orders/{ref} and settles the run', async () => {
    const { t, fleet, create, place, recoveryEvent } = c;
    const run = await create();
    fleet.beta.fault('POST /orders', { delayMs: 4000, times: 1 });
    const res = await place(run.id);
    expectError(res, 502, 'upstream_unreachable');
    // acme was placed before beta timed out; beta's order may exist: the run stays claimed, nothing is re-sent.
    const mid = (await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body;
    expect(mid.status).toBe('placing');
    expect(mid.purchase_orders.map((p: Json) => p.status)).toEqual(['completed', 'ready_for_complete']);
    expectError(await place(run.id), 409, 'already_placed');
    expect(ordersPosted(fleet.beta, BETA(run.id))).toBe(1);
    // The supplier did take it (its answer was lost): it knows the ref.
    fleet.beta.state.orders[BETA(run.id)] = {
      request: { ref: BETA(run.id) },
      answer: { ref: BETA(run.id), orderId: 'FO-late', state: 'ordered', rawStatus: 'CREATED' },
      status: { ref: BETA(run.id), state: 'ordered', rawStatus: 'CREATED', logistics: [] },
    };
    await sql(t, `UPDATE replenishment_runs SET claimed_at = now() - interval '10 minutes' WHERE id = $1`, [run.id]);
    const settled = (await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body;
    expect(settled.status).toBe('placed');
    expect(settled.purchase_orders.map((p: Json) => p.status)).toEqual(['completed', 'completed']);
    expect(fleet.beta.requestsTo('GET /orders/:ref').filter((r) => r.path === `/orders/${BETA(run.id)}`).length).toBeGreaterThanOrEqual(1);
    expect(ordersPosted(fleet.beta, BETA(run.id))).toBe(1);
    expect(ordersPosted(fleet.acme, ACME(run.id))).toBe(1);
    const spent = await sql<{ ref: string; state: string }>(t, `SELECT ref, state FROM spend_ledger WHERE source = 'checkout' AND ref LIKE $1 ORDER BY ref`, [`${run.id}.%`]);
    expect(spent).toEqual([
      { ref: ACME(run.id), state: 'spent' },
      { ref: BETA(run.id), state: 'spent' },
    ]);
    // The recovery event speaks of purchase orders, not of a machine run's locations (issue 20.1).
    const recovered = await recoveryEvent(run.id);
    expect(recovered.reasoning).toContain('every purchase order was completed');
    expect(recovered.reasoning).not.toContain('location');
  });

  it('a timed-out purchase order the supplier never received: recovery reads 404, the run is ready again, and the retry orders it once', async () => {
    const { t, fleet, create, place, recoveryEvent } = c;
    const run = await create();
    fleet.beta.fault('POST /orders', { delayMs: 4000, times: 1 });
    expectError(await place(run.id), 502, 'upstream_unreachable');
    // The client gave up, so the supplier dropped the request: it does not know the ref.
    expect(fleet.beta.state.orders[BETA(run.id)]).toBeUndefined();
    await sql(t, `UPDATE replenishment_runs SET claimed_at = now() - interval '10 minutes' WHERE id = $1`, [run.id]);
    const settled = (await t.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body;
    expect(settled.status).toBe('ready');
    expect(settled.purchase_orders.map((p: Json) => p.status)).toEqual(['completed', 'ready_for_complete']);
    expect(await sql(t, `SELECT state FROM spend_ledger WHERE source = 'checkout' AND ref = $1`, [BETA(run.id)])).toEqual([]);
    const recovered = await recoveryEvent(run.id);
    expect(recovered.reasoning).toContain('completes only the purchase orders not completed yet');
    expect(recovered.reasoning).not.toContain('location');
    expect((await place(run.id).expect(200)).body.status).toBe('placed');
    expect(Object.keys(fleet.beta.state.orders).filter((r) => r === BETA(run.id))).toHaveLength(1);
    expect(ordersPosted(fleet.acme, ACME(run.id))).toBe(1);
  });

  it('20 concurrent places across two instances on one database: one supplier order per purchase order', async () => {
    const { t, fleet, create, place } = c;
    const b = await startTestApp({ databaseUrl: t.databaseUrl!, env: fleet.env });
    try {
      const run = await create();
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? b : t).post(`/ucp/v1/replenishment/runs/${run.id}/place`, { confirm: true })));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      for (const r of answers.filter((x) => x.status !== 200)) expect(r.body.messages[0].code).toBe('already_placed');
      expect(ordersPosted(fleet.acme, ACME(run.id))).toBe(1);
      expect(ordersPosted(fleet.beta, BETA(run.id))).toBe(1);
      expect((await b.get(`/ucp/v1/replenishment/runs/${run.id}`).expect(200)).body.status).toBe('placed');
    } finally {
      await b.close();
    }
  });
});
