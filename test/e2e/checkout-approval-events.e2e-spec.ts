import { ApprovalsService } from '../../src/approvals/approvals.service';
import { Tx } from '../../src/database/tx';
import type { EventEntity } from '../../src/events/event.entity';
import { EventsService } from '../../src/events/events.service';
import { BOTH_DATABASES, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, GUARDS, NS, supplierApp } from '../support/money-fixtures';

/**
 * `approval.requested` written inside a caller's transaction (Tx, the request/job context) is fanned out only after
 * that transaction commits, and never when it rolls back (EventsService.publish is what reaches the socket on either
 * event bus).
 */
describe.each(BOTH_DATABASES)('approval.requested is published after commit (%s)', (db) => {
  let p: FakePartner;
  let t: TestApp;
  let published: { kind: string; approvalId: unknown; inTransaction: boolean }[];
  let inTransaction = false;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    t = await supplierApp(p, { SERVICE_GUARDS: JSON.stringify({ ...GUARDS, budget: { perOrderFen: 1000, dailyFen: 300000, monthlyFen: 3000000 } }) }, db === 'embedded' ? 'embedded' : undefined);
    const events = t.app.get(EventsService);
    const original = events.publish.bind(events);
    jest.spyOn(events, 'publish').mockImplementation(async (v: EventEntity) => {
      published.push({ kind: v.kind, approvalId: v.data?.approval_id, inTransaction });
      return original(v);
    });
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });
  beforeEach(() => {
    published = [];
    inTransaction = false;
  });

  const approvals = () => t.app.get(ApprovalsService);
  const tx = () => t.app.get(Tx);
  const request = (n: string) => ({
    kind: 'checkout_budget' as const,
    subject: { session_id: `tx-${n}`, namespace: 'acme-supply', total_fen: 100, key: `k-${n}`, lines: [] },
    summary: `test ${n}`,
  });
  const requestedFor = (id: string) => published.filter((e) => e.kind === 'approval.requested' && e.approvalId === id);

  it('a committed transaction: published once, after the commit', async () => {
    const a = await tx().run(async () => {
      inTransaction = true;
      const created = await approvals().create(request('commit'));
      expect(requestedFor(created.id)).toHaveLength(0);
      inTransaction = false;
      return created;
    });
    expect(requestedFor(a.id)).toEqual([{ kind: 'approval.requested', approvalId: a.id, inTransaction: false }]);
  });

  it('a rolled-back transaction: never published, nothing stored', async () => {
    let id = '';
    await expect(
      tx().run(async () => {
        id = (await approvals().create(request('rollback'))).id;
        throw new Error('the caller failed after requesting the approval');
      }),
    ).rejects.toThrow('the caller failed');
    expect(id).not.toBe('');
    // A later commit on the same pool does not release it either.
    await tx().run(async () => approvals().create(request('after-rollback')));
    expect(requestedFor(id)).toHaveLength(0);
    expect(published.filter((e) => e.kind === 'approval.requested')).toHaveLength(1);
    const events = (await t.get('/ucp/v1/events?kind=approval.requested&limit=500')).body.events as { data: { approval_id: string } }[];
    expect(events.some((e) => e.data.approval_id === id)).toBe(false);
    expect((await t.get('/ucp/v1/approvals?status=pending')).body.approvals.some((a: { id: string }) => a.id === id)).toBe(false);
  });

  it('a nested run joins the outer transaction: its events wait for the outer commit, and roll back with it', async () => {
    let inner = '';
    const outer = await tx().run(async () => {
      const o = await approvals().create(request('outer'));
      inner = (await tx().run(async () => approvals().create(request('inner')))).id;
      expect(requestedFor(inner)).toHaveLength(0);
      return o;
    });
    expect(requestedFor(outer.id)).toHaveLength(1);
    expect(requestedFor(inner)).toHaveLength(1);
    let lost = '';
    await expect(
      tx().run(async () => {
        lost = (await tx().run(async () => approvals().create(request('nested-rollback')))).id;
        throw new Error('the outer caller failed');
      }),
    ).rejects.toThrow('the outer caller failed');
    expect(requestedFor(lost)).toHaveLength(0);
  });

  it('a checkout over budget: its approval.requested is published once the session is stored', async () => {
    const res = await t.post('/ucp/v1/checkout-sessions', { id: `OB-${db}`, line_items: [{ item: { id: `${NS}:COLA` }, quantity: 1, quantity_unit: { unit: 'BX' } }], fulfillment: DEST });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('requires_escalation');
    const pending = (await t.get('/ucp/v1/approvals?status=pending')).body.approvals.find((a: { subject: { session_id: string } }) => a.subject.session_id === `OB-${db}`);
    expect(requestedFor(pending.id)).toHaveLength(1);
  });
});
