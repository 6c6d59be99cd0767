import { SalesRepository } from '../../../src/sales/sales.repository';
import { SaleLineRow, SaleOrderRow } from '../../../src/sales/sale-order.rules';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('SalesRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: SalesRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([SalesRepository]);
    repo = h.get(SalesRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql(`DELETE FROM sale_orders; DELETE FROM locations; INSERT INTO locations (id, namespace, name) VALUES ('m1', 'vm', 'Lobby')`));

  const order = (id: string, takenAt: string, updatedAt: string | null, more: Partial<SaleOrderRow> = {}): SaleOrderRow => ({
    id,
    namespace: 'vm',
    location_id: 'm1',
    total_fen: 300,
    taken_at: takenAt,
    has_taken_at: true,
    settled_at: null,
    updated_at: updatedAt,
    finalized: null,
    trade_status: 'settled',
    trade_status_raw: 'OK',
    trade_status_label: null,
    data_warnings: null,
    ...more,
  });
  const line = (orderId: string, lineNo: number, quantity: number): SaleLineRow => ({
    order_id: orderId,
    line_no: lineNo,
    vendor_sku: 'v',
    sku_id: 'vm:v',
    slot_id: 'm1:1',
    title: 'Cola',
    quantity,
    price_fen: 300,
    status: 'paid',
    cost_fen: null,
  });
  const upsert = (orders: SaleOrderRow[], lines: SaleLineRow[]) => h.tx.run(() => repo.upsertBatch(orders, lines));

  it('upserts a batch: a newer revision replaces the order and its lines, an equal or older one changes nothing', async () => {
    const first = await upsert([order('o1', '2026-03-01T00:00:00Z', '2026-03-01T00:00:00Z', { trade_status: 'in_progress' })], [line('o1', 1, 1), line('o1', 2, 2)]);
    expect(first).toEqual([{ id: 'o1', locationId: 'm1', totalFen: 300, tradeStatus: 'in_progress', inserted: true, previousStatus: null }]);
    expect(await upsert([order('o1', '2026-03-01T00:00:00Z', '2026-03-01T00:00:00Z')], [line('o1', 1, 9)])).toEqual([]);
    const newer = await upsert([order('o1', '2026-03-01T00:00:00Z', '2026-03-01T01:00:00Z')], [line('o1', 1, 5)]);
    expect(newer).toEqual([{ id: 'o1', locationId: 'm1', totalFen: 300, tradeStatus: 'settled', inserted: false, previousStatus: 'in_progress' }]);
    expect(await upsert([order('o1', '2026-03-01T00:00:00Z', '2026-02-28T00:00:00Z')], [])).toEqual([]);
    const found = await repo.find('o1');
    expect(found?.trade_status).toBe('settled');
    expect(found?.location_name).toBe('Lobby');
    expect(found?.lines?.map((l) => l.quantity)).toEqual([5]);
    expect(await repo.find('o-none')).toBeNull();
  });

  it('pages by take time newest first with a (taken_at, id) keyset, with lines and machine names', async () => {
    await upsert(
      [order('o1', '2026-03-01T00:00:00Z', null), order('o2', '2026-03-02T00:00:00Z', null), order('o3', '2026-03-02T00:00:00Z', null)],
      [line('o2', 2, 2), line('o2', 1, 1)],
    );
    const q = { tradeStatus: null, sortBy: 'taken' as const, limit: 2 };
    const page = await repo.list(q);
    expect(page.map((r) => r.id)).toEqual(['o3', 'o2']);
    expect(page[1]).toMatchObject({ location_name: 'Lobby', lines: [{ line_no: 1, quantity: 1 }, { line_no: 2, quantity: 2 }] });
    const next = await repo.list({ ...q, after: { t: page[1].sort_key, id: page[1].id } });
    expect(next.map((r) => r.id)).toEqual(['o1']);
  });

  it('pages by update time oldest first, leaving out orders never updated, and filters by status and time', async () => {
    await upsert(
      [
        order('o1', '2026-03-01T00:00:00Z', '2026-03-05T00:00:00Z'),
        order('o2', '2026-03-02T00:00:00Z', '2026-03-04T00:00:00Z', { trade_status: 'cancelled' }),
        order('o3', '2026-03-03T00:00:00Z', null),
      ],
      [],
    );
    const ids = async (q: Partial<Parameters<SalesRepository['list']>[0]>) =>
      (await repo.list({ tradeStatus: null, sortBy: 'updated', limit: 10, ...q })).map((r) => r.id);
    expect(await ids({})).toEqual(['o2', 'o1']);
    expect(await ids({ tradeStatus: 'settled' })).toEqual(['o1']);
    expect(await ids({ sortBy: 'taken', takenFrom: new Date('2026-03-02T00:00:00Z'), takenTo: new Date('2026-03-03T00:00:00Z') })).toEqual(['o2']);
    expect(await ids({ updatedFrom: new Date('2026-03-05T00:00:00Z') })).toEqual(['o1']);
  });
});
