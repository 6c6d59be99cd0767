import { DemandRepository } from '../../../src/forecasting/demand.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

/** Window of 7 +08:00 days from 2026-03-01: day 0 starts at 2026-02-28T16:00Z. */
const WINDOW = '2026-03-01';

describe('DemandRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: DemandRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([DemandRepository]);
    repo = h.get(DemandRepository);
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.sql('DELETE FROM sale_orders; DELETE FROM slots; DELETE FROM slot_stock_days; DELETE FROM demand_cache; DELETE FROM demand_cache_runs');
    for (const [id, loc] of [['m1:1', 'm1'], ['m1:2', 'm1'], ['m2:1', 'm2']]) {
      await h.sql(`INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock) VALUES ($1, $2, 'vm', 'v', 'vm:v', 't', 300, 4)`, [id, loc]);
    }
  });

  /** A sale of `qty` in `slot`, taken at `takenAt`, ingested an hour ago (so the cache of the window stays valid). */
  let orderNo = 0;
  const sale = async (slot: string, qty: number, takenAt: string, opts: { status?: string; trade?: string } = {}) => {
    const id = `o${++orderNo}`;
    await h.sql(
      `INSERT INTO sale_orders (id, namespace, location_id, total_fen, taken_at, trade_status, ingested_at) VALUES ($1, 'vm', $2, 0, $3, $4, now() - interval '1 hour')`,
      [id, slot.split(':')[0], takenAt, opts.trade ?? 'settled'],
    );
    await h.sql(`INSERT INTO sale_lines (order_id, line_no, vendor_sku, sku_id, slot_id, quantity, price_fen, status) VALUES ($1, 1, 'v', 'vm:v', $2, $3, 300, $4)`, [
      id,
      slot,
      qty,
      opts.status ?? 'paid',
    ]);
    return id;
  };
  const fixtures = async () => {
    await sale('m1:1', 2, '2026-03-01T02:00:00Z'); // day 0
    await sale('m1:1', 3, '2026-03-03T02:00:00Z'); // day 2
    await sale('m1:1', 9, '2026-03-03T03:00:00Z', { status: 'refunded' });
    await sale('m1:1', 9, '2026-03-03T04:00:00Z', { trade: 'closed' });
    await sale('m1:1', 9, '2026-02-28T15:59:00Z'); // the day before the window (+08:00)
    await sale('m2:1', 1, '2026-03-07T15:00:00Z'); // day 6, the last of the window
    await h.sql(`INSERT INTO slot_stock_days (slot_id, day, min_stock, recorded_at) VALUES ('m1:1', '2026-03-04', 0, now() - interval '1 hour'), ('m1:2', '2026-03-05', 0, now() - interval '1 hour')`);
  };
  const bySlot = async (location?: string) => new Map((await repo.slotAggregates(WINDOW, 7, location)).map((r) => [r.slotId, r]));

  it('aggregates one location live: sums, squares, first and last sale day, empty snapshot days', async () => {
    await fixtures();
    const rows = await bySlot('m1');
    expect([...rows.keys()]).toEqual(['m1:1', 'm1:2']);
    expect(rows.get('m1:1')).toMatchObject({ units: 5, sumSquares: 13, firstSaleDay: 0, lastSaleDay: 2, firstSnapshotDay: 3, snapshotEmptyDays: 1, snapshotEmptyDaysAfterLastSale: 1 });
    expect(rows.get('m1:2')).toMatchObject({ units: 0, firstSaleDay: null, lastSaleDay: null, firstSnapshotDay: 4, snapshotEmptyDays: 1, snapshotEmptyDaysAfterLastSale: 1 });
  });

  it('aggregates the fleet through the cache, recomputed once a sale of the window is ingested again', async () => {
    await fixtures();
    const first = await bySlot();
    expect([...first.keys()]).toEqual(['m1:1', 'm1:2', 'm2:1']);
    expect(first.get('m1:1')).toMatchObject({ units: 5, sumSquares: 13 });
    expect(first.get('m2:1')).toMatchObject({ units: 1, firstSaleDay: 6, lastSaleDay: 6 });
    expect(await h.sql(`SELECT window_days, slots FROM demand_cache_runs`)).toEqual([{ window_days: 7, slots: 3 }]);
    // A change that no ingestion recorded is not seen: the cache answers.
    await h.sql(`UPDATE sale_lines SET quantity = 4 WHERE order_id = 'o${orderNo}'`);
    expect((await bySlot()).get('m2:1')?.units).toBe(1);
    await h.sql(`UPDATE sale_orders SET ingested_at = now() WHERE id = 'o${orderNo}'`);
    expect((await bySlot()).get('m2:1')?.units).toBe(4);
  });

  it('recomputes the fleet when a snapshot of the window is recorded after the cache', async () => {
    await fixtures();
    expect((await bySlot()).get('m2:1')?.snapshotEmptyDays).toBe(0);
    await h.sql(`INSERT INTO slot_stock_days (slot_id, day, min_stock) VALUES ('m2:1', '2026-03-02', 0)`);
    expect((await bySlot()).get('m2:1')).toMatchObject({ snapshotEmptyDays: 1, firstSnapshotDay: 1, snapshotEmptyDaysAfterLastSale: 0 });
  });
});
