import { startFakePartner } from '../partners/fake-partner-server';
import { machineApp } from '../support/money-fixtures';
import { countReads, guardReads } from './guard-reads.suite';

/** Issue 9 step 6 (guard-reads.suite.ts) on PostgreSQL, and the price update; the embedded database is guard-reads-embedded.e2e-spec.ts. */
guardReads('postgres');

describe('guard state read once per request: price update (PostgreSQL)', () => {
  it('a price update reads the guard row once, the location once and its slots once', async () => {
    const p = await startFakePartner({ token: 'm-token' });
    const t = await machineApp(p);
    try {
      const reads = countReads();
      try {
        const res = await t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices: [{ item: { id: 'acme-machine:A1' }, price: { amount: 400, currency: 'CNY' } }] });
        expect(res.status).toBe(200);
        expect(res.body.updated).toHaveLength(1);
        expect(reads.guards()).toBe(1);
        expect([reads.q.selects('locations'), reads.q.selects('slots')]).toEqual([1, 1]);
      } finally {
        reads.restore();
      }
    } finally {
      await t.close();
      await p.close();
    }
  });
});
