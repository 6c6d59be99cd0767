import { DemandRepository } from '../../../src/forecasting/demand/demand.repository';
import { estimateDemand } from '../../../src/forecasting/demand/demand.rules';
import { SlotRow, SlotsRepository } from '../../../src/inventory/slots.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

/** Window of 7 +08:00 days from 2026-03-01: day 0 starts at 2026-02-28T16:00Z. */
const WINDOW = '2026-03-01';

describe('DemandRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: DemandRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([DemandRepository, SlotsRepository]);
    repo = h.get(DemandRepository);
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.sql('DELETE FROM sale_orders; DELETE FROM slots; DELETE FROM slot_stock_days; DELETE FROM demand_cache; DELETE FROM demand_cache_runs; DELETE FROM locations');
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
    // The machine's ledger starts on day 0 and its readings on day 3; each slot's first reading saw 0.
    for (const id of ['m1:1', 'm1:2']) expect(rows.get(id)).toMatchObject({ machineFirstSaleDay: 0, machineFirstSnapshotDay: 3, firstSnapshotEmpty: true });
  });

  it('a day whose lowest reading was 0 is empty with its sales; the machine’s first sale and reading days are per location', async () => {
    await fixtures();
    // Day 2 (2026-03-03) sold 3 and was read at 0: the 3 is a lower bound of that day's demand.
    await h.sql(`INSERT INTO slot_stock_days (slot_id, day, min_stock, recorded_at) VALUES ('m1:1', '2026-03-03', 0, now() - interval '1 hour'), ('m2:1', '2026-03-06', 2, now() - interval '1 hour')`);
    for (const rows of [await bySlot('m1'), await bySlot()]) {
      expect(rows.get('m1:1')).toMatchObject({ snapshotEmptyDays: 2, snapshotEmptyDaysAfterLastSale: 1, snapshotEmptyUnits: 3, snapshotEmptySumSquares: 9, firstSnapshotDay: 2 });
    }
    expect((await bySlot()).get('m2:1')).toMatchObject({ machineFirstSaleDay: 6, machineFirstSnapshotDay: 5, firstSnapshotEmpty: false, snapshotEmptyUnits: 0 });
  });

  /**
   * The replay: the inventory is synced once a day on the service clock (23:30 +08:00), a slot sells out on day 2
   * and is synced at 0 on days 2 to 4, then refilled. Its rate is measured over its in-stock days only.
   */
  it('days a daily sync saw the slot at 0 are stocked out, not days of zero demand', async () => {
    await h.sql(`INSERT INTO locations (id, namespace, name) VALUES ('m1', 'vm', 'one')`);
    const sold = [2, 2, 1, 0, 0, 2, 2];
    const stockAtSync = [4, 2, 0, 0, 0, 6, 4];
    const row = (stock: number): SlotRow => ({ id: 'm1:1', location_id: 'm1', namespace: 'vm', vendor_sku: 'v', sku_id: 'vm:v', title: 't', barcode: null, price_fen: 300, stock, capacity: 8, partner_slot_id: null });
    for (let d = 0; d < 7; d++) {
      if (sold[d]) await sale('m1:1', sold[d], `2026-03-0${d + 1}T02:00:00Z`);
      await h.get(SlotsRepository).replaceForLocation('m1', [row(stockAtSync[d])], { removeOthersExcept: null, readAt: new Date(`2026-03-0${d + 1}T15:30:00Z`) });
    }
    const agg = (await bySlot('m1')).get('m1:1')!;
    const d = estimateDemand({ ...agg, windowDays: 7, stockNow: 4 }, { minHistoryDays: 3, fallbackRatePerDay: 1 });
    // Days 2, 3 and 4 were read at 0: day 2's single unit is a lower bound. 8 units over the 4 in-stock days.
    expect(d).toMatchObject({ observedDays: 7, stockedOutDays: 3, inStockDays: 4, unitsSold: 9, measured: true });
    expect(d.ratePerDay).toBeCloseTo(2, 10);
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
