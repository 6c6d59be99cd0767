import { DataSource } from 'typeorm';
import { RestockRecoveryScheduler } from '../../src/restock/restock-recovery.scheduler';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { crashMidRestock, crashWithKeyInFlight } from '../support/crashes';
import { expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Restock requests on the money-claims core (issue 17): a send whose process died while the platform held its
 * answer is settled by READING the platform's GET /restock/{ref} — on a resend after the lease and on the
 * scheduled tick — never by sending again. The platforms are real HTTP servers that count every POST.
 *
 * Run on PostgreSQL by restock-recovery.e2e-spec.ts and on the embedded database by
 * restock-recovery-embedded.e2e-spec.ts, so a file each stays under 20 s; a real kill with two instances (using the
 * helpers exported here) is restock-recovery-kill.e2e-spec.ts.
 */

export const ACME = 'acme-partner-secret-r17a';
export const BETA = 'beta-partner-secret-r17b';

export function env(acme: FakePartner, beta: FakePartner): Record<string, string> {
  return {
    SERVICE_HTTP_VENDORS: JSON.stringify([
      { namespace: 'acme-machine', baseUrl: acme.url, token: ACME, capabilities: ['inventory', 'ledger', 'replenishment.recommend', 'replenishment.order'] },
      // beta takes recommendations only: it made no promise to answer GET /restock/{ref}.
      { namespace: 'beta-machine', baseUrl: beta.url, token: BETA, capabilities: ['inventory', 'ledger', 'replenishment.recommend'] },
    ]),
    SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine',
    SERVICE_PARTNER_TIMEOUT_MS: '1000',
  };
}

export async function seed(ds: DataSource): Promise<void> {
  await ds.query(`INSERT INTO locations (id, namespace, name) VALUES ('M-1', 'acme-machine', 'machine M-1'), ('B-1', 'beta-machine', 'machine B-1')`);
}

export const order = (reference: string) => ({ reference, binding: true, line_items: [{ item: { id: 'acme-machine:A1' }, quantity: 6 }] });
const recommendation = (reference: string, ns = 'acme-machine') => ({
  reference,
  line_items: [{ item: { id: `${ns}:A1` }, quantity: 2, reason: 'below reorder point' }],
});
export const postsFor = (p: FakePartner, ref: string) => p.requestsTo('POST /restock').filter((r) => (r.body as { ref?: string }).ref === ref).length;
export const readsOf = (p: FakePartner, ref: string) => p.requestsTo('GET /restock/:ref').filter((r) => r.path === `/restock/${ref}`).length;
export const platformRef = (p: FakePartner, ref: string) => p.state.restocks[ref].answer.externalRef as string;
export const rowOf = async (ds: DataSource, ref: string) =>
  ((await ds.query(`SELECT status, external_ref, accepted, recovered, claimed_at FROM restock_orders WHERE reference = $1`, [ref])) as Record<string, unknown>[])[0];
const codes = (body: { messages: { code: string }[] }) => body.messages.map((m) => m.code);

export function restockRecoverySuite(db: 'postgres' | 'embedded'): void {
  describe(`recovery of an interrupted restock send on ${db}`, () => {
    let t: TestApp;
    let ds: DataSource;
    let acme: FakePartner;
    let beta: FakePartner;
    const send = (loc: string, body: unknown) => t.post(`/ucp/v1/locations/${loc}/restock`, body);
    const tick = () => t.app.get(RestockRecoveryScheduler).tick();

    beforeAll(async () => {
      acme = await startFakePartner({ token: ACME });
      beta = await startFakePartner({ token: BETA });
      t = await startTestApp({ db, env: env(acme, beta) });
      ds = t.app.get(DataSource);
      await seed(ds);
    });
    afterAll(async () => {
      await t.close();
      await acme.close();
      await beta.close();
    });
    beforeEach(() => {
      acme.clearFaults();
      beta.clearFaults();
    });

    it('a resend within the lease is 409 restock_in_progress; after it, 200 with the platform external_ref, read once, never POSTed again', async () => {
      acme.fault('POST /restock', { holdMs: 300, times: 1 });
      await send('M-1', order('crash-1')).expect(200);
      await crashMidRestock(ds, 'crash-1', 30);
      const early = await send('M-1', order('crash-1'));
      expectError(early, 409, 'restock_in_progress');
      expect(Number(early.headers['retry-after'])).toBeGreaterThanOrEqual(1); // issue 27: when to ask again
      expect(readsOf(acme, 'crash-1')).toBe(0);

      await crashMidRestock(ds, 'crash-1', 300);
      const res = await send('M-1', order('crash-1')).expect(200);
      expect(res.body).toMatchObject({ location: 'M-1', reference: 'crash-1', binding: true, accepted: 1, external_ref: platformRef(acme, 'crash-1') });
      expect(codes(res.body)).toEqual(['restock_recovered']);
      expect(postsFor(acme, 'crash-1')).toBe(1);
      expect(readsOf(acme, 'crash-1')).toBe(1);
      expect(await rowOf(ds, 'crash-1')).toMatchObject({ status: 'pending', external_ref: platformRef(acme, 'crash-1'), recovered: 'read' });
      const ev = (await t.get('/ucp/v1/events?kind=restock.sent').expect(200)).body.events.find((e: { data: { reference: string } }) => e.data.reference === 'crash-1');
      expect(ev.data).toMatchObject({ recovered: true, external_ref: platformRef(acme, 'crash-1') });
      // Settled once: the next resend replays without reading or sending.
      expect((await send('M-1', order('crash-1')).expect(200)).body.external_ref).toBe(platformRef(acme, 'crash-1'));
      expect(readsOf(acme, 'crash-1')).toBe(1);
      expect(postsFor(acme, 'crash-1')).toBe(1);
    });

    it('issue 27: a retry under the Idempotency-Key of a send whose process died answers the sent restock (recovered by the lease), on both databases', async () => {
      acme.fault('POST /restock', { holdMs: 300, times: 1 });
      await send('M-1', order('crash-key')).expect(200);
      await crashMidRestock(ds, 'crash-key', 300);
      await crashWithKeyInFlight(t, `k-restock-${db}`, { operation: 'restock.send', resourceId: 'M-1', body: order('crash-key') }, 300);
      expect(await tick()).toMatchObject({ placed: 1 });
      const res = await send('M-1', order('crash-key')).set('Idempotency-Key', `k-restock-${db}`).expect(200);
      expect(res.body).toMatchObject({ reference: 'crash-key', accepted: 1, external_ref: platformRef(acme, 'crash-key') });
      const replay = await send('M-1', order('crash-key')).set('Idempotency-Key', `k-restock-${db}`).expect(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(postsFor(acme, 'crash-key')).toBe(1);
    });

    it('the tick settles an expired send without any access and leaves a live one alone', async () => {
      await send('M-1', order('tick-1')).expect(200);
      await send('M-1', order('tick-live')).expect(200);
      await crashMidRestock(ds, 'tick-1', 600);
      await crashMidRestock(ds, 'tick-live', 10);
      expect(await tick()).toEqual({ checked: 1, placed: 1, released: 0, left: 0, unconfirmed: 0 });
      expect(await rowOf(ds, 'tick-1')).toMatchObject({ status: 'pending', external_ref: platformRef(acme, 'tick-1'), recovered: 'read' });
      expect((await rowOf(ds, 'tick-live')).status).toBe('sending');
      expect(readsOf(acme, 'tick-live')).toBe(0);
      expect([postsFor(acme, 'tick-1'), postsFor(acme, 'tick-live')]).toEqual([1, 1]);
      // The live one, once past its lease, is settled by the next tick.
      await crashMidRestock(ds, 'tick-live', 600);
      expect(await tick()).toEqual({ checked: 1, placed: 1, released: 0, left: 0, unconfirmed: 0 });
      expect(await tick()).toEqual({ checked: 0, placed: 0, released: 0, left: 0, unconfirmed: 0 });
    });

    it('an ambiguous read (5xx, reset, timeout, malformed, a 404 that is not a clear "ref unknown") keeps it unsettled and sends nothing again', async () => {
      await send('M-1', order('amb-1')).expect(200);
      await crashMidRestock(ds, 'amb-1', 300);
      const faults = [{ status: 503 }, { destroy: true }, { delayMs: 2500 }, { status: 200, rawBody: 'not json' }, { status: 404, rawBody: '' }];
      for (const f of faults) {
        acme.fault('GET /restock/:ref', { ...f, times: 1 });
        expectError(await send('M-1', order('amb-1')), 409, 'restock_in_progress');
        expect((await rowOf(ds, 'amb-1')).status).toBe('sending');
      }
      acme.fault('GET /restock/:ref', { status: 500, times: 1 });
      expect(await tick()).toEqual({ checked: 1, placed: 0, released: 0, left: 1, unconfirmed: 0 });
      expect((await rowOf(ds, 'amb-1')).status).toBe('sending');
      expect(readsOf(acme, 'amb-1')).toBe(faults.length + 1);
      expect(postsFor(acme, 'amb-1')).toBe(1);
      // The platform answers again: the tick settles it, and the resend replays the platform's order.
      expect(await tick()).toEqual({ checked: 1, placed: 1, released: 0, left: 0, unconfirmed: 0 });
      expect((await send('M-1', order('amb-1')).expect(200)).body.external_ref).toBe(platformRef(acme, 'amb-1'));
      expect(postsFor(acme, 'amb-1')).toBe(1);
    });

    it('a POST the platform took but never answered (connection dropped): 502, then the resend reads it at once; no second POST', async () => {
      acme.fault('POST /restock', { holdMs: 200, destroy: true, times: 1 });
      expectError(await send('M-1', order('drop-1')), 502, 'upstream_unreachable');
      expect(acme.state.restocks['drop-1']).toBeDefined();
      expect(await rowOf(ds, 'drop-1')).toMatchObject({ status: 'sending', claimed_at: null });
      const res = await send('M-1', order('drop-1')).expect(200);
      expect(res.body.external_ref).toBe(platformRef(acme, 'drop-1'));
      expect(postsFor(acme, 'drop-1')).toBe(1);
      expect(readsOf(acme, 'drop-1')).toBe(1);
    });

    it('a POST that never reached the platform: the read says "ref unknown" (404 {ok:false}), so the resend sends it, once', async () => {
      acme.fault('POST /restock', { destroy: true, times: 1 });
      expectError(await send('M-1', order('lost-1')), 502, 'upstream_unreachable');
      expect(acme.state.restocks['lost-1']).toBeUndefined();
      const res = await send('M-1', order('lost-1')).expect(200);
      expect(res.body).toMatchObject({ accepted: 1, external_ref: platformRef(acme, 'lost-1') });
      expect(codes(res.body)).toEqual([]);
      expect(readsOf(acme, 'lost-1')).toBe(1);
      expect(postsFor(acme, 'lost-1')).toBe(2); // the first was cut before the platform handled it
    });

    it('kill switch as before: a recovered answer is replayed while engaged; a request the platform does not know is not sent', async () => {
      await send('M-1', order('ks-1')).expect(200);
      await send('M-1', order('ks-2')).expect(200);
      await crashMidRestock(ds, 'ks-1', 300);
      await crashMidRestock(ds, 'ks-2', 300);
      delete acme.state.restocks['ks-2']; // the platform lost it (or never took it)
      await t.put('/ucp/v1/admin/kill-switch', { engaged: true, reason: 'freeze' }).expect(200);
      try {
        expect((await send('M-1', order('ks-1')).expect(200)).body.external_ref).toBe(platformRef(acme, 'ks-1'));
        expectError(await send('M-1', order('ks-2')), 409, 'kill_switch_engaged');
        expect((await rowOf(ds, 'ks-2')).status).toBe('failed');
        expect(postsFor(acme, 'ks-2')).toBe(1);
        expectError(await send('M-1', order('ks-new')), 409, 'kill_switch_engaged');
      } finally {
        await t.put('/ucp/v1/admin/kill-switch', { engaged: false, reason: 'thaw' }).expect(200);
      }
      await send('M-1', order('ks-2')).expect(200);
      expect(postsFor(acme, 'ks-2')).toBe(2);
    });

    it('a recommendation to a platform that serves GET /restock/{ref}: recovered the same way', async () => {
      await send('M-1', recommendation('rec-1')).expect(200);
      await crashMidRestock(ds, 'rec-1', 300);
      const res = await send('M-1', recommendation('rec-1')).expect(200);
      expect(res.body).toMatchObject({ binding: false, accepted: 1 });
      expect(res.body.external_ref).toBeUndefined();
      expect(codes(res.body)).toEqual(['restock_recovered']);
      expect([postsFor(acme, 'rec-1'), readsOf(acme, 'rec-1')]).toEqual([1, 1]);
      expect((await rowOf(ds, 'rec-1')).status).toBe('sent');
    });

    it('a recommendation to a platform that cannot be asked: 200 accepted 0 with a restock_unconfirmed warning, never sent again', async () => {
      await send('B-1', recommendation('rec-b-1', 'beta-machine')).expect(200);
      await send('B-1', recommendation('rec-b-2', 'beta-machine')).expect(200);
      await crashMidRestock(ds, 'rec-b-1', 300);
      await crashMidRestock(ds, 'rec-b-2', 300);
      const res = await send('B-1', recommendation('rec-b-1', 'beta-machine')).expect(200);
      expect(res.body).toMatchObject({ binding: false, accepted: 0 });
      expect(res.body.messages).toEqual([expect.objectContaining({ code: 'restock_unconfirmed', severity: 'warning', path: '$.reference' })]);
      expect((await send('B-1', recommendation('rec-b-1', 'beta-machine')).expect(200)).body).toMatchObject({ accepted: 0 });
      expect(await tick()).toEqual({ checked: 1, placed: 0, released: 0, left: 0, unconfirmed: 1 });
      expect((await rowOf(ds, 'rec-b-2')).recovered).toBe('unconfirmed');
      expect(beta.requestsTo('GET /restock/:ref')).toHaveLength(0);
      expect([postsFor(beta, 'rec-b-1'), postsFor(beta, 'rec-b-2')]).toEqual([1, 1]);
    });
  });
}
