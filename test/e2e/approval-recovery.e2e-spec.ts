import { ApprovalRecoveryScheduler } from '../../src/approvals/approval-recovery.scheduler';
import { TestApp } from '../support/test-app';
import { machineApp, slotRow } from '../support/money-fixtures';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { sql } from '../support/sql';
import { crashMidExecution } from '../support/crashes';

/**
 * Recovery of an interrupted approval execution: the process died between marking the approval `executing` and
 * recording the result. The crash is written into the database (status, an old claim time and the decision, as the
 * claim leaves them); the machine platform is a real HTTP server. Recovery READS the effect and never sets the price
 * again; nothing is left `executing` forever.
 */
const stored = async (t: TestApp, id: string) => (await sql<{ status: string }>(t, `SELECT status FROM approvals WHERE id = $1`, [id]))[0].status;

describe('recovery of an interrupted approval execution (price change)', () => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'm-token' });
    t = await machineApp(p);
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });
  beforeEach(() => p.clearFaults());

  /** Parks a move over the cap (B2 500 → 900) as a price_change approval; returns its id. */
  async function parked(sku = 'B2', to = 900): Promise<string> {
    const res = await t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices: [{ item: { id: `acme-machine:${sku}` }, price: { amount: to, currency: 'CNY' } }] });
    expect(res.status).toBe(200);
    return res.body.actions[0].approval_id as string;
  }
  const posts = () => p.requestsTo('POST /prices').length;

  it('the platform shows the new price: recorded as approved (slot price set, unlocked, event recovered); nothing is sent again', async () => {
    const id = await parked();
    await crashMidExecution(t, id, 600);
    // The dead process's POST /prices reached the platform.
    (p.state.inventory['loc-1'] as { vendorSku: string; priceFen: number }[]).find((i) => i.vendorSku === 'B2')!.priceFen = 900;
    const before = posts();
    const got = (await t.get(`/ucp/v1/approvals/${id}`).expect(200)).body.approval;
    expect(got).toMatchObject({ status: 'approved', resolver: { channel: 'dashboard' } });
    expect(await stored(t, id)).toBe('approved');
    expect(posts()).toBe(before);
    expect(await slotRow(t.databaseUrl!, 'loc-1-B2')).toEqual({ price_fen: '900', price_locked: false });
    const ev = (await t.get('/ucp/v1/events?kind=approval.resolved').expect(200)).body.events.find(
      (e: { data: { approval_id: string; recovered?: boolean } }) => e.data.approval_id === id && e.data.recovered,
    );
    expect(ev.data).toMatchObject({ approved: true, recovered: true });
  });

  it('the platform still shows the old price: pending again (slot stays locked); approving it then sets the price once', async () => {
    const id = await parked('C3', 1300);
    await crashMidExecution(t, id, 600);
    const before = posts();
    expect(await t.app.get(ApprovalRecoveryScheduler).tick()).toEqual({ checked: 1, placed: 0, released: 1, left: 0 });
    expect(await stored(t, id)).toBe('pending');
    expect(posts()).toBe(before);
    expect(await slotRow(t.databaseUrl!, 'loc-1-C3')).toEqual({ price_fen: '1000', price_locked: true });
    const ok = await t.post(`/ucp/v1/approvals/${id}`, { approved: true });
    expect(ok.status).toBe(200);
    expect(ok.body.approval.status).toBe('approved');
    expect(posts()).toBe(before + 1);
    expect(await slotRow(t.databaseUrl!, 'loc-1-C3')).toEqual({ price_fen: '1300', price_locked: false });
  });

  it('the platform cannot be read: left executing (shown pending, resolving is 409), then settled by a later tick; within the lease nothing is read', async () => {
    const id = await parked('A1', 600);
    await crashMidExecution(t, id, 20);
    const reads = () => p.requestsTo('GET /inventory').length;
    const r0 = reads();
    expect(await t.app.get(ApprovalRecoveryScheduler).tick()).toEqual({ checked: 0, placed: 0, released: 0, left: 0 });
    expect((await t.get(`/ucp/v1/approvals/${id}`).expect(200)).body.approval.status).toBe('pending');
    expect(reads()).toBe(r0);
    await sql(t, `UPDATE approvals SET claimed_at = claimed_at - interval '10 minutes' WHERE id = $1`, [id]);
    p.fault('GET /inventory', { status: 503 });
    expect(await t.app.get(ApprovalRecoveryScheduler).tick()).toEqual({ checked: 1, placed: 0, released: 0, left: 1 });
    expect(await stored(t, id)).toBe('executing');
    expect((await t.post(`/ucp/v1/approvals/${id}`, { approved: true })).status).toBe(409);
    p.clearFaults();
    (p.state.inventory['loc-1'] as { vendorSku: string; priceFen: number }[]).find((i) => i.vendorSku === 'A1')!.priceFen = 600;
    const before = posts();
    expect(await t.app.get(ApprovalRecoveryScheduler).tick()).toEqual({ checked: 1, placed: 1, released: 0, left: 0 });
    expect(await stored(t, id)).toBe('approved');
    expect(posts()).toBe(before);
  });

  it('an interrupted rejection is finished: rejected, the slot unlocked, nothing sent', async () => {
    const id = await parked('B2', 1200);
    await crashMidExecution(t, id, 600, false);
    const before = posts();
    expect((await t.get(`/ucp/v1/approvals/${id}`).expect(200)).body.approval.status).toBe('rejected');
    expect((await slotRow(t.databaseUrl!, 'loc-1-B2')).price_locked).toBe(false);
    expect(posts()).toBe(before);
  });
});
