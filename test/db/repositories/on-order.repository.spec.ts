import { OnOrderRepository } from '../../../src/replenishment/plan/on-order.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('OnOrderRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: OnOrderRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([OnOrderRepository]);
    repo = h.get(OnOrderRepository);
  });
  afterAll(() => h.close());
  // The kinds that buy through purchase orders, as the caller asks the fulfillers for them.
  const PO = ['supply_checkout'];
  beforeEach(() => h.sql('DELETE FROM replenishment_runs; DELETE FROM checkout_sessions'));

  const line = (slot: string, location: string, ordered: number, from?: string) => ({
    slot_id: slot,
    location,
    ordered_each: ordered,
    ...(from ? { supply: { item: { id: `${from}:X` }, namespace: from, vendor_sku: 'X', via: 'manual', ordered_from: from } } : {}),
  });
  const run = (id: string, status: string, lines: unknown[], more: { kind?: string; delivered?: unknown[]; claimedAgoSecs?: number } = {}) =>
    h.sql(
      `INSERT INTO replenishment_runs (id, status, fulfiller, fulfiller_kind, cost_is_estimated, lines, delivered, claimed_at)
       VALUES ($1, $2, 'sim', $3, true, $4::jsonb, $5::jsonb, CASE WHEN $6::int IS NULL THEN NULL ELSE now() - make_interval(secs => $6::int) END)`,
      [id, status, more.kind ?? 'simulated_supplier', JSON.stringify(lines), more.delivered ? JSON.stringify(more.delivered) : null, more.claimedAgoSecs ?? null],
    );

  it('reads the lines of placing and placed runs, marks closed lines, filters by location and slots', async () => {
    await run('r-placed', 'placed', [line('s1', 'L1', 24), line('s2', 'L2', 5)], { delivered: [{ slot_id: 's2', quantity: 5 }] });
    await run('r-placing', 'placing', [line('s1', 'L1', 3)]);
    await run('r-ready', 'ready', [line('s1', 'L1', 9)]);
    await run('r-done', 'delivered', [line('s1', 'L1', 9)]);
    const all = await repo.openLines(PO);
    expect(all.map((r) => [r.run_id, r.slot_id, r.ordered_each, r.closed, r.po_completed]).sort()).toEqual([
      ['r-placed', 's1', 24, false, false],
      ['r-placed', 's2', 5, true, false],
      ['r-placing', 's1', 3, false, false],
    ]);
    expect((await repo.openLines(PO, 'L2')).map((r) => r.slot_id)).toEqual(['s2']);
    expect((await repo.openLines(PO, undefined, ['s2'])).map((r) => r.run_id)).toEqual(['r-placed']);
  });

  it('a supply-checkout run not placed as a whole: only the lines of its completed purchase order', async () => {
    await run('r-sc', 'ready', [line('s1', 'L1', 12, 'acme'), line('s2', 'L1', 6, 'beta')], { kind: 'supply_checkout' });
    await h.sql(`INSERT INTO checkout_sessions (id, namespace, status, run_id) VALUES ('r-sc.acme', 'acme', 'completed', 'r-sc'), ('r-sc.beta', 'beta', 'incomplete', 'r-sc')`);
    const rows = await repo.openLines(PO);
    expect(rows.map((r) => [r.slot_id, r.po_completed])).toEqual([
      ['s1', true],
      ['s2', false],
    ]);
    // A kind not named as buying through purchase orders: its sessions count for nothing.
    expect(await repo.openLines([])).toEqual([]);
  });

  it('names the runs claimed after a date, other than the draft, with their slots and whether anything arrived', async () => {
    await run('r-old', 'placed', [line('s1', 'L1', 1)], { claimedAgoSecs: 3600 });
    await run('r-new', 'closed', [line('s1', 'L1', 1), line('s2', 'L1', 1)], { claimedAgoSecs: 10, delivered: [{ slot_id: 's1', quantity: 1 }] });
    await run('r-self', 'placing', [line('s1', 'L1', 1)], { claimedAgoSecs: 5 });
    const since = new Date(Date.now() - 60_000);
    const later = await repo.orderedSince('r-self', since, PO);
    expect(later).toEqual([{ id: 'r-new', status: 'closed', slot_ids: ['s1', 's2'], received_any: true, po_completed: false }]);
  });
});
