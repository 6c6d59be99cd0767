import { CheckoutRepository } from '../../../src/checkout/checkout.repository';
import type { CarriedWrite } from '../../../src/database/carried-write';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('CheckoutRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: CheckoutRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([CheckoutRepository]);
    repo = h.get(CheckoutRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql('DELETE FROM checkout_sessions'));

  const session = (id: string, status: string, more: Record<string, unknown> = {}) => repo.insert({ id, namespace: 'supplier-a', status, ...more });
  const claimedAgo = (id: string, seconds: number | null) =>
    h.sql(`UPDATE checkout_sessions SET claimed_at = CASE WHEN $2::int IS NULL THEN NULL ELSE now() - make_interval(secs => $2::int) END WHERE id = $1`, [id, seconds]);

  it('inserts once: a second insert of the same id is ignored and answers false', async () => {
    expect(await session('cs-1', 'incomplete')).toBe(true);
    expect(await session('cs-1', 'completed')).toBe(false);
    expect((await repo.find('cs-1'))?.status).toBe('incomplete');
    expect(await repo.find('cs-none')).toBeNull();
  });

  it('an insert carries another write in the same statement and answers what each wrote (issue 21)', async () => {
    await h.sql(`CREATE TABLE IF NOT EXISTS carried_marks (mark text PRIMARY KEY)`);
    await h.sql(`DELETE FROM carried_marks`);
    const mark = (value: string): CarriedWrite => ({
      written: 'mark_written',
      ctes: (bind) => `mark_written AS (INSERT INTO carried_marks (mark) VALUES (${bind(value)}::text) ON CONFLICT DO NOTHING RETURNING mark)`,
    });
    expect(await repo.insertCarrying({ id: 'cs-c1', namespace: 'supplier-a', status: 'incomplete' }, mark('m1'))).toEqual({ main: true, carried: true });
    expect(await repo.insertCarrying({ id: 'cs-c2', namespace: 'supplier-a', status: 'incomplete' }, mark('m1'))).toEqual({ main: true, carried: false });
    expect(await repo.insertCarrying({ id: 'cs-c1', namespace: 'supplier-a', status: 'completed' }, mark('m2'))).toEqual({ main: false, carried: true });
    expect((await repo.find('cs-c1'))?.status).toBe('incomplete');
    expect((await h.sql<{ mark: string }>(`SELECT mark FROM carried_marks ORDER BY mark`)).map((r) => r.mark)).toEqual(['m1', 'm2']);
  });

  it('moves a session only from the listed statuses, answering whether it moved', async () => {
    await session('cs-1', 'ready_for_complete');
    expect(await repo.transition('cs-1', ['incomplete'], 'canceled')).toBe(false);
    expect(await repo.transition('cs-1', ['incomplete', 'ready_for_complete'], 'canceled')).toBe(true);
    expect((await repo.find('cs-1'))?.status).toBe('canceled');
    expect(await repo.transition('cs-missing', ['incomplete'], 'canceled')).toBe(false);
  });

  it('refuses a transition the machine does not allow, before any SQL', async () => {
    await session('cs-1', 'completed');
    await expect(repo.transition('cs-1', ['completed'], 'incomplete')).rejects.toThrow();
    expect((await repo.find('cs-1'))?.status).toBe('completed');
  });

  it('stamps the claim with the database clock to the millisecond and answers the stored time', async () => {
    await session('cs-1', 'complete_in_progress');
    const [{ now }] = await h.sql<{ now: Date }>('SELECT now() AS now');
    const claimed = await repo.markClaimed('cs-1');
    expect(claimed).toBeInstanceOf(Date);
    expect((await repo.find('cs-1'))?.claimedAt?.getTime()).toBe(claimed.getTime());
    expect(Math.abs(claimed.getTime() - now.getTime())).toBeLessThan(60_000);
    // Stored as answered (no sub-millisecond part), so the claim compares equal in SQL once read back.
    const [{ held }] = await h.sql<{ held: boolean }>(`SELECT claimed_at = $2::timestamptz AS held FROM checkout_sessions WHERE id = $1`, ['cs-1', claimed]);
    expect(held).toBe(true);
  });

  it('lists expired claims of complete_in_progress only: no claim time first, then oldest, within the limit', async () => {
    for (const id of ['cs-fresh', 'cs-old', 'cs-older', 'cs-null']) await session(id, 'complete_in_progress');
    await session('cs-other', 'ready_for_complete');
    await claimedAgo('cs-fresh', 5);
    await claimedAgo('cs-old', 300);
    await claimedAgo('cs-older', 600);
    await claimedAgo('cs-null', null);
    await claimedAgo('cs-other', 900);
    const ids = async (leaseMs: number, limit: number) => (await repo.expiredClaims(leaseMs, limit)).map((s) => s.id);
    expect(await ids(60_000, 10)).toEqual(['cs-null', 'cs-older', 'cs-old']);
    expect(await ids(60_000, 2)).toEqual(['cs-null', 'cs-older']);
    expect(await ids(400_000, 10)).toEqual(['cs-null', 'cs-older']);
    expect(await ids(1_000, 10)).toEqual(['cs-null', 'cs-older', 'cs-old', 'cs-fresh']);
  });

  it('pages completed sessions newest first with a (completed_at, id) keyset', async () => {
    const at = ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z'];
    for (const [i, t] of at.entries()) await session(`po-${i}`, 'completed', { completedAt: new Date(t) });
    await session('po-open', 'ready_for_complete');
    const first = await repo.listCompleted({ limit: 2 });
    expect(first.map((s) => s.id)).toEqual(['po-3', 'po-2']);
    const last = first[first.length - 1];
    const next = await repo.listCompleted({ limit: 5, after: { completedAt: last.completedAt!, id: last.id } });
    expect(next.map((s) => s.id)).toEqual(['po-1', 'po-0']);
  });

  it('lists the sessions of a run by id, and open orders least recently checked first', async () => {
    await session('cs-b', 'completed', { runId: 'run-1' });
    await session('cs-a', 'completed', { runId: 'run-1', supplierState: 'arrived' });
    await session('cs-c', 'completed', { runId: 'run-2' });
    expect((await repo.byRun('run-1')).map((s) => s.id)).toEqual(['cs-a', 'cs-b']);
    await repo.saveSupplierStatus('cs-c', { state: 'shipped', rawStatus: 'SHIPPED', logistics: [{ carrier: 'x' }] });
    expect((await repo.openOrders(10)).map((s) => s.id)).toEqual(['cs-b', 'cs-c']);
    const c = await repo.find('cs-c');
    expect(c).toMatchObject({ supplierState: 'shipped', supplierRawStatus: 'SHIPPED', logistics: [{ carrier: 'x' }] });
    expect(c?.supplierCheckedAt).toBeInstanceOf(Date);
    await repo.saveSupplierStatus('cs-b', { state: 'cancelled', rawStatus: null, logistics: [] });
    expect((await repo.openOrders(10)).map((s) => s.id)).toEqual(['cs-c']);
  });

  it('locks the row for update inside a transaction and saves changes', async () => {
    await session('cs-1', 'incomplete');
    await session('cs-2', 'incomplete');
    // The harness's own connection asks for the same lock without waiting: refused while the transaction holds it.
    const lockNow = (id: string) => h.sql(`SELECT id FROM checkout_sessions WHERE id = $1 FOR UPDATE NOWAIT`, [id]);
    await h.tx.run(async () => {
      const row = await repo.findForUpdate('cs-1');
      await expect(lockNow('cs-1')).rejects.toMatchObject({ code: '55P03' }); // lock_not_available
      await expect(lockNow('cs-2')).resolves.toEqual([{ id: 'cs-2' }]);
      row!.totalFen = 1234;
      await repo.save(row!);
    });
    await expect(lockNow('cs-1')).resolves.toEqual([{ id: 'cs-1' }]);
    expect((await repo.find('cs-1'))?.totalFen).toBe(1234);
  });
});
