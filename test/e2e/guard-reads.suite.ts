/**
 * A request reads the guard state once (issue 9, step 6): every check of one request (kill switch, rules, budget)
 * uses the same snapshot. Counted at the database (the SELECTs a request sends), so a new read of the guard row
 * cannot slip in unnoticed, whichever code path sends it.
 *
 * The checkout and run cases run on PostgreSQL by guard-reads.e2e-spec.ts (with the price update, PostgreSQL only)
 * and on the embedded database by guard-reads-embedded.e2e-spec.ts (a file each stays under 20 s).
 */
import { DataSource } from 'typeorm';
import { PartnerRegistry } from '../../src/partners/registry/partner-registry';
import { startTestApp, TestApp } from '../support/test-app';
import { countQueries } from '../support/query-counter';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, NS, readySession, supplierApp } from '../support/money-fixtures';

/** Counts what the database is sent from now on until `restore()`: `guards()` the SELECTs of the guard row. */
export function countReads() {
  const q = countQueries();
  return {
    guards: () => q.selects('guard_state'),
    q,
    restore: () => q.stop(),
  };
}

export function guardReads(db: 'postgres' | 'embedded'): void {
  describe(`guard state read once per request on ${db}`, () => {
    let p: FakePartner;
    let t: TestApp;
    beforeAll(async () => {
      p = await startFakePartner({ token: 'sup-token' });
      t = await supplierApp(p, {}, db === 'embedded' ? 'embedded' : undefined);
    });
    afterAll(async () => {
      await t.close();
      await p.close();
    });

    it('checkout complete: one guard read; the session is locked twice (claim, answer) and read three times', async () => {
      await readySession(t, 'PO-reads');
      const reads = countReads();
      try {
        const done = await t.post('/ucp/v1/checkout-sessions/PO-reads/complete', { confirm: true });
        expect(done.status).toBe(200);
        expect(done.body.status).toBe('completed');
        expect(reads.guards()).toBe(1);
        // Locked for the claim and locked to record the answer; read before the claim, after it and for the answer.
        expect([reads.q.selects('checkout_sessions', { forUpdate: true }), reads.q.selects('checkout_sessions', { forUpdate: false })]).toEqual([2, 3]);
      } finally {
        reads.restore();
      }
    });

    it('checkout create with a generated id: one transaction, one guard read, no approval read', async () => {
      const reads = countReads();
      try {
        const res = await t.post('/ucp/v1/checkout-sessions', { line_items: [{ item: { id: `${NS}:WATER` }, quantity: 3 }], fulfillment: DEST });
        expect(res.status).toBe(201);
        expect(res.body.id).toMatch(/^po_/);
        expect(reads.guards()).toBe(1);
        expect(reads.q.selects('approvals')).toBe(0);
        expect(reads.q.transactions()).toBe(1);
        expect((await t.get(`/ucp/v1/checkout-sessions/${res.body.id}`).expect(200)).body.line_items).toHaveLength(1);
      } finally {
        reads.restore();
      }
    });

    it('run place (the simulated supplier): one guard read; the run is read, locked for the claim, checked for later runs and read once placed', async () => {
      const sim = await startTestApp({ db });
      try {
        const ds = sim.app.get(DataSource);
        const { products } = await sim.app.get(PartnerRegistry).simulatedSupplier.getCatalog();
        const product = products.find((x) => x.packSize > 1)!;
        await ds.query(`INSERT INTO locations (id, namespace, name) VALUES ('L-reads', 'sim-machine', 'reads')`);
        await ds.query(
          `INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock, capacity) VALUES ($1, 'L-reads', 'sim-machine', $2, $3, 't', 500, 0, 30)`,
          ['L-reads-1', product.vendorSku, `sim-machine:${product.vendorSku}`],
        );
        const run = (await sim.post('/ucp/v1/replenishment/runs').expect(201)).body;
        expect(run.status).toBe('ready');
        const reads = countReads();
        try {
          const placed = await sim.post(`/ucp/v1/replenishment/runs/${run.id}/place`).expect(200);
          expect(placed.body.status).toBe('placed');
          expect(reads.guards()).toBe(1);
          const runs = reads.q;
          // Reads: the run, the runs ordered since it was drafted (the stale check, issue 25), the run once placed.
          expect([runs.selects('replenishment_runs', { forUpdate: false }), runs.selects('replenishment_runs', { forUpdate: true })]).toEqual([3, 1]);
        } finally {
          reads.restore();
        }
      } finally {
        await sim.close();
      }
    });
  });
}
