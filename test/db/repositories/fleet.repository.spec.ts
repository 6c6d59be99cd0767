import { FleetRepository } from '../../../src/fleet/fleet.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('FleetRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: FleetRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([FleetRepository]);
    repo = h.get(FleetRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql('DELETE FROM sale_orders; DELETE FROM slots; DELETE FROM locations'));

  const location = (id: string, name: string) => h.sql(`INSERT INTO locations (id, namespace, name) VALUES ($1, 'vm', $2)`, [id, name]);
  const slot = (id: string, locationId: string, stock: number, capacity: number | null, syncedAt: string) =>
    h.sql(
      `INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock, capacity, synced_at) VALUES ($1, $2, 'vm', $1, 'vm:' || $1, 't', 300, $3, $4, $5)`,
      [id, locationId, stock, capacity, syncedAt],
    );
  const sale = (id: string, locationId: string, takenAt: string, totalFen: number, status = 'settled') =>
    h.sql(`INSERT INTO sale_orders (id, namespace, location_id, total_fen, taken_at, has_taken_at, trade_status) VALUES ($1, 'vm', $2, $3, $4, true, $5)`, [
      id,
      locationId,
      totalFen,
      takenAt,
      status,
    ]);

  const weekFrom = new Date('2026-03-01T00:00:00Z');
  const todayFrom = new Date('2026-03-07T00:00:00Z');

  it('sums slots and settled sales per location in one row each, by id; a location with neither answers zeros', async () => {
    await location('m2', 'Gym');
    await location('m1', 'Lobby');
    await location('m3', 'Empty');
    await slot('m1:1', 'm1', 0, 10, '2026-03-07T01:00:00Z');
    await slot('m1:2', 'm1', 4, 10, '2026-03-07T03:00:00Z');
    await slot('m1:3', 'm1', 5, null, '2026-03-07T02:00:00Z');
    await slot('m2:1', 'm2', -1, 8, '2026-03-06T00:00:00Z');
    await sale('s-today', 'm1', '2026-03-07T05:00:00Z', 300);
    await sale('s-today-2', 'm1', '2026-03-07T00:00:00Z', 250); // the day starts at todayFrom, inclusive
    await sale('s-week', 'm1', '2026-03-03T00:00:00Z', 700);
    await sale('s-old', 'm1', '2026-02-28T23:59:59Z', 9_000); // before the week
    await sale('s-refunded', 'm1', '2026-03-07T06:00:00Z', 5_000, 'refunded');
    await sale('s-m2', 'm2', '2026-03-02T00:00:00Z', 100);

    const rows = await repo.overview(todayFrom, weekFrom);
    expect(rows.map((r) => r.id)).toEqual(['m1', 'm2', 'm3']);
    expect(rows[0]).toEqual({
      id: 'm1',
      name: 'Lobby',
      namespace: 'vm',
      slots: 3,
      sold_out: 1,
      stock: 9,
      stock_with_capacity: 4,
      capacity: 20,
      last_synced_at: new Date('2026-03-07T03:00:00Z'),
      today_count: 2,
      today_fen: 550,
      week_count: 3,
      week_fen: 1_250,
    });
    expect(rows[1]).toMatchObject({ id: 'm2', slots: 1, sold_out: 1, stock: -1, capacity: 8, today_count: 0, today_fen: 0, week_count: 1, week_fen: 100 });
    expect(rows[2]).toEqual({
      id: 'm3',
      name: 'Empty',
      namespace: 'vm',
      slots: 0,
      sold_out: 0,
      stock: 0,
      stock_with_capacity: 0,
      capacity: 0,
      last_synced_at: null,
      today_count: 0,
      today_fen: 0,
      week_count: 0,
      week_fen: 0,
    });
  });

  it('answers no rows without locations, whatever the slots and sales', async () => {
    await slot('m9:1', 'm9', 3, 5, '2026-03-07T00:00:00Z');
    await sale('s-1', 'm9', '2026-03-07T05:00:00Z', 300);
    expect(await repo.overview(todayFrom, weekFrom)).toEqual([]);
  });
});
