import { expectError } from '../support/envelope';
import { BOTH_DATABASES, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, GUARDS, NS, readySession, supplierApp } from '../support/money-fixtures';

const APPROVER = 'owner-approver-token-7d41e0b2';

/**
 * Issue 17 item 3: with SERVICE_APPROVER_TOKEN set, the operator token cannot approve its own over-budget order,
 * release the kill switch or rewrite guard rules (403 `forbidden`); the approver can; anyone may engage the switch.
 */
describe.each(BOTH_DATABASES)('separation of duties with SERVICE_APPROVER_TOKEN (production, %s)', (db) => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    t = await supplierApp(
      p,
      {
        SERVICE_APPROVER_TOKEN: APPROVER,
        SERVICE_ADMIN_CHATS: JSON.stringify([{ chat_id: 'ops', admins: ['boss'] }]),
        SERVICE_GUARDS: JSON.stringify({ ...GUARDS, budget: { perOrderFen: 1000, dailyFen: 3_000_000, monthlyFen: 30_000_000 } }),
      },
      db === 'embedded' ? 'embedded' : undefined,
    );
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });
  const asApprover = <T extends { set: (k: string, v: string) => T }>(r: T) => r.set('Authorization', `Bearer ${APPROVER}`);
  const pendingFor = async (session: string) => {
    const list = await t.get('/ucp/v1/approvals?kind=checkout_budget');
    return (list.body.approvals as { id: string; subject: { session_id: string } }[]).find((a) => a.subject.session_id === session)!;
  };

  it('the operator token cannot approve its own over-budget order; the approver can, and the record says which credential', async () => {
    const s = await readySession(t, 'SOD-1', [{ item: { id: `${NS}:COLA` }, quantity: 3, quantity_unit: { unit: 'BX' } }]);
    expect(s.body.status).toBe('requires_escalation');
    const approval = await pendingFor('SOD-1');
    // The exploit of the issue: a self-approval on the dashboard channel with a made-up sender.
    const self = await t.post(`/ucp/v1/approvals/${approval.id}`, { approved: true, resolver: { channel: 'dashboard', sender_id: 'anyone' } });
    expectError(self, 403, 'forbidden');
    expectError(await t.post(`/ucp/v1/approvals/${approval.id}`, { approved: true }), 403, 'forbidden');
    expectError(await t.post(`/ucp/v1/approvals/${approval.id}`, { approved: true, resolver: 'dashboard' }), 403, 'forbidden');
    expect((await t.get(`/ucp/v1/approvals/${approval.id}`)).body.approval.status).toBe('pending');
    expectError(await t.post('/ucp/v1/checkout-sessions/SOD-1/complete', { confirm: true }), 409, 'approval_required');
    expect(p.requestsTo('POST /orders')).toHaveLength(0);

    const ok = await asApprover(t.raw.post(`/ucp/v1/approvals/${approval.id}`)).send({ approved: true, resolver: { channel: 'dashboard', sender_id: 'anyone' } });
    expect(ok.status).toBe(200);
    expect(ok.body.approval).toMatchObject({ status: 'approved', resolver: { channel: 'dashboard', credential: 'approver', sender_id: 'anyone' } });
    const events = await t.get('/ucp/v1/events?kind=approval.resolved');
    const resolved = (events.body.events as { data: Record<string, unknown> }[]).find((e) => e.data.approval_id === approval.id && e.data.approved === true)!;
    // The event is read by every token holder: it names the channel and credential, no sender (issue 26).
    expect(resolved.data.resolver).toEqual({ channel: 'dashboard', credential: 'approver' });
    const done = await t.post('/ucp/v1/checkout-sessions/SOD-1/complete', { confirm: true });
    expect(done.status).toBe(200);
    expect(p.requestsTo('POST /orders')).toHaveLength(1);
  });

  it('the chat channel is closed to the operator token (issue 26: it needs the chat\'s own credential, see chat-channel-approvals)', async () => {
    await readySession(t, 'SOD-2', [{ item: { id: `${NS}:COLA` }, quantity: 3, quantity_unit: { unit: 'BX' } }]);
    const approval = await pendingFor('SOD-2');
    expectError(await t.post(`/ucp/v1/approvals/${approval.id}`, { approved: false, resolver: { channel: 'chat_tool', chat_id: 'ops', sender_id: 'intruder' } }), 403, 'forbidden');
    expectError(await t.post(`/ucp/v1/approvals/${approval.id}`, { approved: false, resolver: { channel: 'chat_tool', chat_id: 'ops', sender_id: 'boss' } }), 403, 'forbidden');
    expect((await t.get(`/ucp/v1/approvals/${approval.id}`)).body.approval.status).toBe('pending');
  });

  it('the kill switch: both may engage it, only the approver releases it', async () => {
    expect((await t.put('/ucp/v1/admin/kill-switch', { engaged: true, reason: 'agent stops spending' })).status).toBe(200);
    expectError(await t.put('/ucp/v1/admin/kill-switch', { engaged: false, reason: 'agent resumes' }), 403, 'forbidden');
    expectError(await t.put('/ucp/v1/admin/kill-switch', { engaged: 'no', reason: 'agent resumes' }), 403, 'forbidden');
    expect((await t.get('/ucp/v1/admin/guards')).body.kill_switch.engaged).toBe(true);
    const released = await asApprover(t.raw.put('/ucp/v1/admin/kill-switch')).send({ engaged: false, reason: 'owner resumes' });
    expect(released.status).toBe(200);
    expect(released.body.kill_switch.engaged).toBe(false);
    expect((await asApprover(t.raw.put('/ucp/v1/admin/kill-switch')).send({ engaged: true, reason: 'owner stops' })).status).toBe(200);
    expect((await asApprover(t.raw.put('/ucp/v1/admin/kill-switch')).send({ engaged: false, reason: 'owner resumes' })).status).toBe(200);
  });

  it('guard rules: only the approver replaces them; both read them', async () => {
    const rules = { ...GUARDS, budget: { perOrderFen: 1, dailyFen: 1, monthlyFen: 1 } };
    expectError(await t.put('/ucp/v1/admin/guards', rules), 403, 'forbidden');
    expect((await t.get('/ucp/v1/admin/guards')).body.guards.budget.perOrderFen).toBe(1000);
    const res = await asApprover(t.raw.put('/ucp/v1/admin/guards')).send({ ...GUARDS, budget: { perOrderFen: 1000, dailyFen: 3_000_001, monthlyFen: 30_000_000 } });
    expect(res.status).toBe(200);
    expect((await asApprover(t.raw.get('/ucp/v1/admin/guards'))).body.guards.budget.dailyFen).toBe(3_000_001);
  });

  it('a request is withdrawn by the credential that asked for it or by the approver, never by another (issues 29, 30)', async () => {
    const lines = [{ item: { id: `${NS}:COLA` }, quantity: 3, quantity_unit: { unit: 'BX' } }];
    const created = await asApprover(t.raw.post('/ucp/v1/checkout-sessions')).send({ id: 'SOD-W1', line_items: lines, fulfillment: DEST });
    expect(created.status).toBe(201);
    const owners = await pendingFor('SOD-W1');
    expect((await t.get(`/ucp/v1/approvals/${owners.id}`)).body.approval.requested_by).toMatchObject({ credential: 'approver' });
    expectError(await t.post(`/ucp/v1/approvals/${owners.id}/withdraw`, { reason: 'not mine to take back' }), 403, 'forbidden');
    expect((await t.get(`/ucp/v1/approvals/${owners.id}`)).body.approval.status).toBe('pending');
    const byOwner = await asApprover(t.raw.post(`/ucp/v1/approvals/${owners.id}/withdraw`)).send({ reason: 'ordered by mistake' });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.approval).toMatchObject({ status: 'rejected', resolver: { channel: 'withdrawn', credential: 'approver', reason: 'ordered by mistake' } });

    await readySession(t, 'SOD-W2', lines);
    const mine = await pendingFor('SOD-W2');
    const byOperator = await t.post(`/ucp/v1/approvals/${mine.id}/withdraw`, { reason: 'wrong quantity' });
    expect(byOperator.status).toBe(200);
    expect(byOperator.body.approval).toMatchObject({ status: 'rejected', resolver: { channel: 'withdrawn', credential: 'operator' } });
    expect(p.requestsTo('POST /orders').filter((r) => JSON.stringify(r.body).includes('SOD-W'))).toHaveLength(0);
  });

  it('the approver token is a credential on every other route; a wrong token is still 401', async () => {
    expect((await asApprover(t.raw.get('/ucp/v1/checkout-sessions/SOD-1'))).status).toBe(200);
    expect((await asApprover(t.raw.get('/ucp/v1/approvals'))).status).toBe(200);
    expectError(await t.raw.get('/ucp/v1/approvals').set('Authorization', `Bearer ${APPROVER}x`), 401, 'unauthorized');
  });
});

describe('without SERVICE_APPROVER_TOKEN the operator token keeps full access (the spec)', () => {
  it('resolves a dashboard approval, releases the kill switch and replaces guard rules, recorded as the operator', async () => {
    const p = await startFakePartner({ token: 'sup-token' });
    const t = await supplierApp(p, { SERVICE_GUARDS: JSON.stringify({ ...GUARDS, budget: { perOrderFen: 1000, dailyFen: 3_000_000, monthlyFen: 30_000_000 } }) });
    try {
      await readySession(t, 'ONE-1', [{ item: { id: `${NS}:COLA` }, quantity: 3, quantity_unit: { unit: 'BX' } }]);
      const approval = (await t.get('/ucp/v1/approvals?kind=checkout_budget')).body.approvals[0];
      const res = await t.post(`/ucp/v1/approvals/${approval.id}`, { approved: true });
      expect(res.status).toBe(200);
      expect(res.body.approval.resolver).toEqual({ channel: 'dashboard', credential: 'operator' });
      expect((await t.put('/ucp/v1/admin/kill-switch', { engaged: true, reason: 'x' })).status).toBe(200);
      expect((await t.put('/ucp/v1/admin/kill-switch', { engaged: false, reason: 'y' })).status).toBe(200);
      expect((await t.put('/ucp/v1/admin/guards', GUARDS)).status).toBe(200);
    } finally {
      await t.close();
      await p.close();
    }
  });
});
