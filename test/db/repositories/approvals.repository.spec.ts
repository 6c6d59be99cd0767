import { ApprovalsRepository } from '../../../src/approvals/approvals.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('ApprovalsRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: ApprovalsRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([ApprovalsRepository]);
    repo = h.get(ApprovalsRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql('DELETE FROM approvals'));

  const approval = (kind: string, subjectKey: string, more: Record<string, unknown> = {}) =>
    repo.insert({ kind, subject: { id: subjectKey }, subjectKey, summary: `${kind} ${subjectKey}`, ...more });
  const claimedAgo = (id: string, seconds: number | null) =>
    h.sql(`UPDATE approvals SET claimed_at = CASE WHEN $2::int IS NULL THEN NULL ELSE now() - make_interval(secs => $2::int) END WHERE id = $1`, [id, seconds]);
  const decision = { approved: true, resolver: { channel: 'dashboard' } };

  it('lists by status and kind, newest request first, within the limit; finds by subject', async () => {
    const a = await approval('price_change', 'slot-1', { requestedAt: new Date('2026-01-01T00:00:00Z') });
    const b = await approval('replenishment_run', 'run-1', { requestedAt: new Date('2026-01-02T00:00:00Z') });
    const c = await approval('price_change', 'slot-1', { requestedAt: new Date('2026-01-03T00:00:00Z'), status: 'approved' });
    expect((await repo.list({ statuses: null, limit: 10 })).map((x) => x.id)).toEqual([c.id, b.id, a.id]);
    expect((await repo.list({ statuses: ['pending'], limit: 10 })).map((x) => x.id)).toEqual([b.id, a.id]);
    expect((await repo.list({ statuses: ['pending'], kind: 'price_change', limit: 10 })).map((x) => x.id)).toEqual([a.id]);
    expect((await repo.list({ statuses: null, limit: 2 })).map((x) => x.id)).toEqual([c.id, b.id]);
    expect((await repo.bySubject('slot-1')).map((x) => x.id)).toEqual([c.id, a.id]);
    expect((await repo.bySubject('slot-1', 'replenishment_run')).map((x) => x.id)).toEqual([]);
  });

  it('claims the execution of a pending approval once, with its decision and the claim time', async () => {
    const a = await approval('price_change', 'slot-1');
    const claimed = await repo.claimExecution(a.id, decision);
    expect(claimed).toMatchObject({ id: a.id, status: 'executing', execution: decision });
    expect(claimed?.claimedAt).toBeInstanceOf(Date);
    expect(await repo.claimExecution(a.id, { approved: false, resolver: {} })).toBeNull();
    expect((await repo.find(a.id))?.execution).toEqual(decision);
    expect(await repo.claimExecution('00000000-0000-0000-0000-000000000000', decision)).toBeNull();
  });

  it('moves an approval only from its status, answering the row when it moved; leaving executing ends the claim', async () => {
    const a = await approval('price_change', 'slot-1');
    expect(await repo.transition(a.id, 'executing', 'approved')).toBeNull();
    await repo.claimExecution(a.id, decision);
    const resolvedAt = new Date('2026-02-01T00:00:00Z');
    const moved = await repo.transition(a.id, 'executing', 'approved', { resolvedAt, resolver: { channel: 'dashboard' } });
    expect(moved).toMatchObject({ status: 'approved', claimedAt: null, execution: null, resolvedAt, resolver: { channel: 'dashboard' } });
    expect(await repo.transition(a.id, 'executing', 'approved')).toBeNull();
    await expect(repo.transition(a.id, 'approved', 'pending')).rejects.toThrow();
  });

  it('keeps resolved_at and resolver when the transition does not set them', async () => {
    const a = await approval('price_change', 'slot-1', { resolvedAt: new Date('2026-01-05T00:00:00Z'), resolver: { channel: 'chat_tool' } });
    await repo.claimExecution(a.id, decision);
    const back = await repo.transition(a.id, 'executing', 'pending');
    expect(back).toMatchObject({ status: 'pending', resolvedAt: new Date('2026-01-05T00:00:00Z'), resolver: { channel: 'chat_tool' }, claimedAt: null });
  });

  it('lists executing approvals past the lease: no claim time first, then the oldest claim, within the limit', async () => {
    const fresh = await approval('k', 's1');
    const old = await approval('k', 's2');
    const none = await approval('k', 's3');
    const pending = await approval('k', 's4');
    for (const a of [fresh, old, none]) await repo.claimExecution(a.id, decision);
    await claimedAgo(fresh.id, 5);
    await claimedAgo(old.id, 600);
    await claimedAgo(none.id, null);
    await claimedAgo(pending.id, 900);
    expect((await repo.expiredExecuting(60_000, 10)).map((a) => a.id)).toEqual([none.id, old.id]);
    expect((await repo.expiredExecuting(60_000, 1)).map((a) => a.id)).toEqual([none.id]);
    expect((await repo.expiredExecuting(1_000, 10)).map((a) => a.id)).toEqual([none.id, old.id, fresh.id]);
  });
});
