import { DataSource } from 'typeorm';
import { PartnerRegistry } from '../../src/partners/registry/partner-registry';
import { SimulatedSupplier } from '../../src/partners/simulated/simulated-supplier';
import { RunRecoveryScheduler } from '../../src/replenishment/runs/placement/run-recovery.scheduler';
import { crashMidPlace, crashWithKeyInFlight } from '../support/crashes';
import { expectError } from '../support/envelope';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 27, item 2, for runs: a retry of a place with the same Idempotency-Key after the placing process died answers
 * the placed run (placed by the lease's recovery), never 409 `already_placed`; while the run is still being placed,
 * 409 with `Retry-After`. The kill is written into the database (crashes.ts): the run `placing` with its amount held,
 * the key in_flight; the supplier took the order.
 */
jest.setTimeout(120_000);

describe.each(BOTH_DATABASES)('a retry of a run place after a crash, on %s', (db) => {
  let t: TestApp;
  let ds: DataSource;
  let sim: SimulatedSupplier;
  let vendorSku = '';
  const orders = (id: string) => sim.orderCalls.filter((o) => o.ref === id).length;
  const newRun = async () => (await t.post('/ucp/v1/replenishment/runs').expect(201)).body as { id: string };
  const place = (id: string, key: string) => t.post(`/ucp/v1/replenishment/runs/${id}/place`).set('Idempotency-Key', key);
  /** The placing process died after the supplier took its order; key and run claimed `agoSeconds` ago. */
  async function diedPlacing(id: string, key: string, agoSeconds: number, runAgoSeconds = agoSeconds): Promise<void> {
    await crashMidPlace(t, id, runAgoSeconds);
    await sim.createOrder({ ref: id, lines: [{ vendorSku, quantity: 1, unit: 'pack' }], fulfillment: { method: 'restock' } });
    await crashWithKeyInFlight(t, key, { operation: 'replenishment.run.place', resourceId: id, body: {} }, agoSeconds);
  }

  beforeAll(async () => {
    t = await startTestApp({ db });
    ds = t.app.get(DataSource);
    sim = t.app.get(PartnerRegistry).simulatedSupplier;
    vendorSku = (await sim.getCatalog()).products[0].vendorSku;
    await ds.query(`INSERT INTO locations (id, namespace, name) VALUES ('L-rty', 'sim-machine', 'machine L-rty')`);
    await ds.query(
      `INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock, capacity) VALUES ('L-rty-1', 'L-rty', 'sim-machine', $1, $2, 'a good', 500, 0, 20)`,
      [vendorSku, `sim-machine:${vendorSku}`],
    );
  });
  afterAll(() => t.close());

  it('placed by the lease, then retried with the same key: 200 with the placed run, replayed after; ordered once', async () => {
    const run = await newRun();
    await diedPlacing(run.id, `k-run-1-${db}`, 300);
    expect(await t.app.get(RunRecoveryScheduler).tick()).toMatchObject({ placed: 1 });
    const res = await place(run.id, `k-run-1-${db}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: run.id, status: 'placed' });
    const again = await place(run.id, `k-run-1-${db}`);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(orders(run.id)).toBe(1);
    expectError(await place(run.id, `k-run-1-other-${db}`), 409, 'already_placed');
  });

  it('still being placed: 409 with Retry-After and the key kept for the first attempt; once the lease settled it, the retry answers the placed run', async () => {
    const run = await newRun();
    await diedPlacing(run.id, `k-run-2-${db}`, 300, 30);
    const early = await place(run.id, `k-run-2-${db}`);
    expectError(early, 409, 'already_placed');
    expect(Number(early.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await ds.query(`UPDATE replenishment_runs SET claimed_at = now() - interval '10 minutes' WHERE id = $1`, [run.id]);
    expect(await t.app.get(RunRecoveryScheduler).tick()).toMatchObject({ placed: 1 });
    const res = await place(run.id, `k-run-2-${db}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: run.id, status: 'placed' });
    expect(orders(run.id)).toBe(1);
  });
});
