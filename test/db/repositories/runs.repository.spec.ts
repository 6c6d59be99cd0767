import { RunsRepository } from '../../../src/replenishment/runs/runs.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('RunsRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: RunsRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([RunsRepository]);
    repo = h.get(RunsRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql('DELETE FROM replenishment_runs; DELETE FROM slots; DELETE FROM restock_orders; DELETE FROM slot_stock_days'));

  const run = (id: string, status: string, more: Record<string, unknown> = {}) =>
    repo.insert({ id, status, fulfiller: 'supplier-a', fulfillerKind: 'simulated_supplier', costIsEstimated: false, lines: [], ...more });
  const claimedAgo = (id: string, seconds: number | null) =>
    h.sql(`UPDATE replenishment_runs SET claimed_at = CASE WHEN $2::int IS NULL THEN NULL ELSE now() - make_interval(secs => $2::int) END WHERE id = $1`, [id, seconds]);

  it('lists newest first, by status, within the limit', async () => {
    await run('run-1', 'ready', { createdAt: new Date('2026-01-01T00:00:00Z') });
    await run('run-2', 'placed', { createdAt: new Date('2026-01-02T00:00:00Z') });
    await run('run-3', 'ready', { createdAt: new Date('2026-01-03T00:00:00Z') });
    expect((await repo.list({ limit: 10 })).map((r) => r.id)).toEqual(['run-3', 'run-2', 'run-1']);
    expect((await repo.list({ limit: 1 })).map((r) => r.id)).toEqual(['run-3']);
    expect((await repo.list({ status: 'ready', limit: 10 })).map((r) => r.id)).toEqual(['run-3', 'run-1']);
  });

  it('moves a run from one status only, with its patch, answering whether it moved', async () => {
    await run('run-1', 'awaiting_approval');
    expect(await repo.transition('run-1', 'ready', 'placing')).toBe(false);
    expect(await repo.transition('run-1', 'awaiting_approval', 'ready', { approvalId: 'ap-1' })).toBe(true);
    expect(await repo.find('run-1')).toMatchObject({ status: 'ready', approvalId: 'ap-1' });
    await expect(repo.transition('run-1', 'ready', 'delivered')).rejects.toThrow();
  });

  it('claims a ready run once, stamping the database clock to the millisecond', async () => {
    await run('run-1', 'ready');
    const claimed = await repo.claimForPlacing('run-1');
    expect(claimed).toBeInstanceOf(Date);
    const stored = await repo.find('run-1');
    expect(stored).toMatchObject({ status: 'placing' });
    expect(stored?.claimedAt?.getTime()).toBe(claimed!.getTime());
    expect(await repo.claimForPlacing('run-1')).toBeNull();
    expect(await repo.claimForPlacing('run-missing')).toBeNull();
  });

  it('renews and settles only with the claim time that holds the run', async () => {
    await run('run-1', 'ready');
    const first = (await repo.claimForPlacing('run-1'))!;
    expect(await repo.renewClaim('run-1', new Date(first.getTime() - 1))).toBeNull();
    await new Promise((r) => setTimeout(r, 5));
    const renewed = (await repo.renewClaim('run-1', first))!;
    expect(renewed.getTime()).toBeGreaterThan(first.getTime());
    // The first claim is no longer the one holding the run: it settles nothing.
    expect(await repo.settleClaim('run-1', first, 'placed')).toBe(false);
    expect(await repo.settleClaim('run-1', renewed, 'placed', { supplierOrderId: 'so-1' })).toBe(true);
    expect(await repo.find('run-1')).toMatchObject({ status: 'placed', supplierOrderId: 'so-1' });
    expect(await repo.settleClaim('run-1', renewed, 'ready')).toBe(false);
  });

  it('settles a claim without a time (made before claim times were kept) with a null claim time', async () => {
    await run('run-1', 'placing');
    expect(await repo.settleClaim('run-1', new Date(), 'ready')).toBe(false);
    expect(await repo.settleClaim('run-1', null, 'ready')).toBe(true);
    expect((await repo.find('run-1'))?.status).toBe('ready');
  });

  it('lists expired placing runs: no claim time first, then oldest, within the limit', async () => {
    for (const id of ['run-fresh', 'run-old', 'run-null']) await run(id, 'placing');
    await run('run-ready', 'ready');
    await claimedAgo('run-fresh', 5);
    await claimedAgo('run-old', 600);
    await claimedAgo('run-null', null);
    await claimedAgo('run-ready', 900);
    expect((await repo.expiredPlacing(60_000, 10)).map((r) => r.id)).toEqual(['run-null', 'run-old']);
    expect((await repo.expiredPlacing(60_000, 1)).map((r) => r.id)).toEqual(['run-null']);
    expect((await repo.expiredPlacing(1_000, 10)).map((r) => r.id)).toEqual(['run-null', 'run-old', 'run-fresh']);
  });

  it('lists the placed runs of the kinds asked, oldest first', async () => {
    await run('run-m2', 'placed', { fulfillerKind: 'machine_restock', createdAt: new Date('2026-01-02T00:00:00Z') });
    await run('run-m1', 'placed', { fulfillerKind: 'machine_restock', createdAt: new Date('2026-01-01T00:00:00Z') });
    await run('run-m3', 'delivered', { fulfillerKind: 'machine_restock' });
    await run('run-s', 'placed');
    expect((await repo.placedRunsOfKinds(['machine_restock'], 10)).map((r) => r.id)).toEqual(['run-m1', 'run-m2']);
    expect((await repo.placedRunsOfKinds(['machine_restock'], 1)).map((r) => r.id)).toEqual(['run-m1']);
    expect(await repo.placedRunsOfKinds([], 10)).toEqual([]);
  });

  it('locks slots by id and sets their stock; reads restock orders by (namespace, reference)', async () => {
    for (const id of ['m1:b', 'm1:a']) {
      await h.sql(`INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock) VALUES ($1, 'm1', 'vm', 'v', 'vm:v', 't', 100, 1)`, [id]);
    }
    expect(await repo.slotsForUpdate([])).toEqual([]);
    await h.tx.run(async () => {
      expect((await repo.slotsForUpdate(['m1:b', 'm1:a', 'm1:none'])).map((s) => s.id)).toEqual(['m1:a', 'm1:b']);
      // Refilled from 0 at 2026-03-04 23:30 +08:00 on the service clock: that day's reading is the 0.
      await repo.setSlotStock('m1:a', { before: 0, after: 7, at: new Date('2026-03-04T15:30:00Z') });
    });
    expect((await h.sql<{ stock: number }>(`SELECT stock FROM slots WHERE id = 'm1:a'`))[0].stock).toBe(7);
    expect(await h.sql(`SELECT slot_id, to_char(day, 'YYYY-MM-DD') AS day, min_stock FROM slot_stock_days WHERE slot_id = 'm1:a'`)).toEqual([
      { slot_id: 'm1:a', day: '2026-03-04', min_stock: 0 },
    ]);
    const order = (ns: string, ref: string) =>
      h.sql(`INSERT INTO restock_orders (namespace, reference, location_id, binding, lines, fingerprint, status) VALUES ($1, $2, 'm1', true, '[]', 'f', 'sent')`, [ns, ref]);
    await order('vm', 'run-1:m1');
    await order('vm', 'run-2:m1');
    await order('other', 'run-1:m1');
    expect(await repo.restockOrders([])).toEqual([]);
    const found = await repo.restockOrders([{ namespace: 'vm', reference: 'run-1:m1' }, { namespace: 'other', reference: 'run-1:m1' }]);
    expect(found.map((o) => `${o.namespace}/${o.reference}`).sort()).toEqual(['other/run-1:m1', 'vm/run-1:m1']);
  });
});
