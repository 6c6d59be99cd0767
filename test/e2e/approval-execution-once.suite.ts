/**
 * Issue 27, item 1: an approval is executed at most once. The effect (the slot's price, its `price.changed` event)
 * and the approval's outcome are recorded in one transaction; recovery of an interrupted execution reads the
 * service's own record first and the platform second; a price superseded by a later acknowledged change is never
 * sent again. The kills are written into the database at the exact points the soak hit (crashes.ts); the machine
 * platform is a real HTTP server that applied (or not) what it received.
 *
 * Run on PostgreSQL by approval-execution-once.e2e-spec.ts and on the embedded database by
 * approval-execution-once-embedded.e2e-spec.ts (a file each stays under 20 s).
 */
import { DataSource } from 'typeorm';
import { ApprovalRecoveryScheduler } from '../../src/approvals/approval-recovery.scheduler';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { crashAfterPriceRecorded, crashMidExecution } from '../support/crashes';
import { expectError } from '../support/envelope';
import { waitUntil } from '../support/wait-until';
import { addSlot, platformItem, priceBody, pricesPosted, pricingApp } from '../support/money-fixtures';
import type { TestApp } from '../support/test-app';

export function approvalExecutedOnce(db: 'postgres' | 'embedded'): void {
  jest.setTimeout(120_000);

  describe(`an approval executed at most once, on ${db}`, () => {
    let p: FakePartner;
    let t: TestApp;
    let ds: DataSource;
    beforeAll(async () => {
      p = await startFakePartner({ token: 'm-token' });
      t = await pricingApp(p, db);
      ds = t.app.get(DataSource);
    });
    afterAll(async () => {
      await t.close();
      await p.close();
    });
    beforeEach(() => p.clearFaults());

    const slot = (sku: string) => addSlot(t, p, sku);
    const setPrice = (sku: string, fen: number) => t.put('/ucp/v1/locations/loc-1/prices', priceBody(sku, fen));
    /** Parks 500 → 900 (over the cap) as a price_change approval. */
    async function parked(sku: string): Promise<string> {
      const res = await setPrice(sku, 900).expect(200);
      return res.body.actions[0].approval_id as string;
    }
    const platform = (sku: string) => platformItem(p, sku).priceFen;
    const posted = (sku: string) => pricesPosted(p, sku);
    const slotRow = async (sku: string) => ((await ds.query(`SELECT price_fen::int AS price_fen, price_locked FROM slots WHERE id = $1`, [`loc-1-${sku}`])) as { price_fen: number; price_locked: boolean }[])[0];
    const approvalStatus = async (id: string) => ((await ds.query(`SELECT status FROM approvals WHERE id = $1`, [id])) as { status: string }[])[0].status;
    const tick = () => t.app.get(ApprovalRecoveryScheduler).tick();

    it('the soak: effect recorded, killed before the approval left executing, then a within-cap change acknowledged: recovery finishes it from the own record and never sends the old price again', async () => {
      await slot('S1');
      const id = await parked('S1');
      // The approver resolved it; the platform applied 900 and the effect was recorded; the process died 4 ms later.
      platformItem(p, 'S1').priceFen = 900;
      await crashAfterPriceRecorded(t, { approvalId: id, slotId: 'loc-1-S1', location: 'loc-1', itemId: 'acme-machine:S1', previousFen: 500, priceFen: 900 }, 600);
      // A within-cap change to 880, acknowledged by the platform.
      const within = await setPrice('S1', 880).expect(200);
      expect(within.body.updated).toEqual([{ item: { id: 'acme-machine:S1' }, previous: { amount: 900, currency: 'CNY' }, price: { amount: 880, currency: 'CNY' } }]);
      expect(platform('S1')).toBe(880);
      // The lease's recovery: the own record names the approval, so it is approved; the platform is not even read.
      const reads = p.requestsTo('GET /inventory').length;
      expect(await tick()).toEqual({ checked: 1, placed: 1, released: 0, left: 0 });
      expect(await approvalStatus(id)).toBe('approved');
      expect(p.requestsTo('GET /inventory').length).toBe(reads);
      // The approver's retry: already resolved; 900 is never sent again, the acknowledged 880 stands.
      expectError(await t.post(`/ucp/v1/approvals/${id}`, { approved: true }), 409, 'already_resolved');
      expect(posted('S1')).toEqual([880]);
      expect(platform('S1')).toBe(880);
      expect(await slotRow('S1')).toEqual({ price_fen: 880, price_locked: false });
      const changed = (await t.get('/ucp/v1/events?kind=price.changed&location=loc-1').expect(200)).body.events.filter((e: { data: { approval_id?: string } }) => e.data.approval_id === id);
      expect(changed).toHaveLength(1); // the effect is recorded once
    });

    it('killed 4 ms after the platform answered, before the one transaction committed: the slot stays locked (a within-cap change is refused), recovery reads the platform and records effect and outcome together', async () => {
      await slot('S2');
      const id = await parked('S2');
      // The platform takes the POST and applies it; its answer never reaches a live process (held, then the socket closes).
      p.fault('POST /prices', { holdMs: 50, destroy: true, times: 1 });
      const sent = await t.post(`/ucp/v1/approvals/${id}`, { approved: true });
      expect(sent.status).toBe(502);
      expect(platform('S2')).toBe(900);
      // What the kill leaves: nothing recorded, the approval still executing (its claim now past the lease).
      await crashMidExecution(t, id, 600);
      expect(await slotRow('S2')).toEqual({ price_fen: 500, price_locked: true });
      const refused = await setPrice('S2', 600).expect(200);
      expect(refused.body.updated).toEqual([]);
      expect(refused.body.messages.map((m: { code: string }) => m.code)).toEqual(['approval_required']);
      expect(posted('S2')).toEqual([900]);
      expect(await tick()).toEqual({ checked: 1, placed: 1, released: 0, left: 0 });
      expect(await approvalStatus(id)).toBe('approved');
      expect(await slotRow('S2')).toEqual({ price_fen: 900, price_locked: false });
      const [changed] = (await t.get('/ucp/v1/events?kind=price.changed&location=loc-1').expect(200)).body.events.filter((e: { data: { approval_id?: string } }) => e.data.approval_id === id);
      expect(changed.data.changes).toEqual([{ item: 'acme-machine:S2', previous_fen: 500, price_fen: 900 }]);
      const [resolved] = (await t.get('/ucp/v1/events?kind=approval.resolved').expect(200)).body.events.filter((e: { data: { approval_id?: string; recovered?: boolean } }) => e.data.approval_id === id && e.data.recovered);
      expect(resolved.data.approved).toBe(true);
      expectError(await t.post(`/ucp/v1/approvals/${id}`, { approved: true }), 409, 'already_resolved');
      expect(posted('S2')).toEqual([900]);
    });

    it('a price superseded by a later acknowledged change is never sent again: recovery finishes the approval without sending, the later price stands', async () => {
      await slot('S3');
      const id = await parked('S3');
      await crashMidExecution(t, id, 600);
      // A change acknowledged after the approval was parked (the slot unlocked by a racing writer): 500 → 560.
      await ds.query(`UPDATE slots SET price_locked = false WHERE id = 'loc-1-S3'`);
      await setPrice('S3', 560).expect(200);
      expect(platform('S3')).toBe(560);
      expect(await tick()).toEqual({ checked: 1, placed: 1, released: 0, left: 0 });
      expect(await approvalStatus(id)).toBe('approved');
      expectError(await t.post(`/ucp/v1/approvals/${id}`, { approved: true }), 409, 'already_resolved');
      expect(posted('S3')).toEqual([560]);
      expect(platform('S3')).toBe(560);
      expect(await slotRow('S3')).toEqual({ price_fen: 560, price_locked: false });
    });

    it('effect and outcome commit together: an execution whose approval was settled meanwhile by the lease records nothing of its own (one price.changed, not two)', async () => {
      await slot('S5');
      const id = await parked('S5');
      // The platform applies at once and holds its answer; meanwhile the claim is made to look expired and recovered.
      p.fault('POST /prices', { holdMs: 1500, times: 1 });
      const resolving = t.post(`/ucp/v1/approvals/${id}`, { approved: true }).then((r) => r);
      await waitUntil(() => posted('S5').length > 0, { what: 'the approved price to reach the platform' });
      await ds.query(`UPDATE approvals SET claimed_at = claimed_at - interval '10 minutes' WHERE id = $1`, [id]);
      expect(await tick()).toEqual({ checked: 1, placed: 1, released: 0, left: 0 });
      expectError(await resolving, 409, 'already_resolved');
      expect(await approvalStatus(id)).toBe('approved');
      const changed = (await t.get('/ucp/v1/events?kind=price.changed&location=loc-1').expect(200)).body.events.filter((e: { data: { approval_id?: string } }) => e.data.approval_id === id);
      expect(changed).toHaveLength(1);
      expect(await slotRow('S5')).toEqual({ price_fen: 900, price_locked: false });
      expect(posted('S5')).toEqual([900]);
    });

    it('nothing reached the platform and nothing was recorded: pending again, and approving it then sends once', async () => {
      await slot('S4');
      const id = await parked('S4');
      await crashMidExecution(t, id, 600);
      expect(await tick()).toEqual({ checked: 1, placed: 0, released: 1, left: 0 });
      expect(await approvalStatus(id)).toBe('pending');
      expect((await t.post(`/ucp/v1/approvals/${id}`, { approved: true }).expect(200)).body.approval.status).toBe('approved');
      expect(posted('S4')).toEqual([900]);
      expect(await slotRow('S4')).toEqual({ price_fen: 900, price_locked: false });
    });
  });
}
