import { SlotRow, SlotsRepository } from '../../../src/inventory/slots.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

/** A service-clock time far from the machine's: 2026-03-04T23:30+08:00, the day 2026-03-04 (UTC says 03-04 15:30). */
const AT = new Date('2026-03-04T15:30:00Z');

describe('SlotsRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: SlotsRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([SlotsRepository]);
    repo = h.get(SlotsRepository);
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.sql('DELETE FROM locations; DELETE FROM slots; DELETE FROM slot_stock_days');
    await h.sql(`INSERT INTO locations (id, namespace, name) VALUES ('m1', 'vm', 'one'), ('m2', 'vm', 'two')`);
  });

  const row = (id: string, more: Partial<SlotRow> = {}): SlotRow => ({
    id,
    location_id: 'm1',
    namespace: 'vm',
    vendor_sku: id,
    sku_id: `vm:${id}`,
    title: `t ${id}`,
    barcode: null,
    price_fen: 100,
    stock: 5,
    capacity: null,
    partner_slot_id: null,
    ...more,
  });
  const slots = () => h.sql<{ id: string; stock: number; barcode: string | null; capacity: number | null }>('SELECT id, stock, barcode, capacity FROM slots ORDER BY id');

  it('upserts a machine’s slots, keeping a stored barcode and capacity that the read does not give', async () => {
    expect(await repo.replaceForLocation('m1', [row('a', { barcode: '690', capacity: 10 }), row('b')], { removeOthersExcept: null, readAt: AT })).toEqual({ upserted: 2, removed: 0 });
    expect(await repo.replaceForLocation('m1', [row('a', { stock: 2 })], { removeOthersExcept: null, readAt: AT })).toEqual({ upserted: 1, removed: 0 });
    expect(await slots()).toEqual([
      { id: 'a', stock: 2, barcode: '690', capacity: 10 },
      { id: 'b', stock: 5, barcode: null, capacity: null },
    ]);
  });

  it('removes the slots the read no longer lists, except the kept ones and those whose price awaits approval; counts them', async () => {
    await repo.replaceForLocation('m1', [row('a'), row('b'), row('c'), row('d'), row('e')], { removeOthersExcept: null, readAt: AT });
    await repo.replaceForLocation('m2', [row('x', { location_id: 'm2' })], { removeOthersExcept: null, readAt: AT });
    await h.sql(`UPDATE slots SET price_locked = true WHERE id = 'd'`);
    expect(await repo.replaceForLocation('m1', [row('a')], { removeOthersExcept: ['b'], readAt: AT })).toEqual({ upserted: 1, removed: 2 });
    expect((await slots()).map((s) => s.id)).toEqual(['a', 'b', 'd', 'x']);
    expect(await repo.replaceForLocation('m1', [row('a')], { removeOthersExcept: ['b'], readAt: AT })).toEqual({ upserted: 1, removed: 0 });
  });

  it('records each read slot’s stock as its reading of the service clock’s +08:00 day, keeping the day’s lowest', async () => {
    const readings = () => h.sql<{ slot_id: string; day: string; min_stock: number }>(`SELECT slot_id, to_char(day, 'YYYY-MM-DD') AS day, min_stock FROM slot_stock_days ORDER BY day, slot_id`);
    await repo.replaceForLocation('m1', [row('a'), row('b', { stock: 0 })], { removeOthersExcept: null, readAt: AT });
    await repo.replaceForLocation('m1', [row('a', { stock: 2 }), row('b', { stock: 3 })], { removeOthersExcept: null, readAt: AT });
    // An hour later on the service clock is the next +08:00 day (UTC is still 2026-03-04).
    await repo.replaceForLocation('m1', [row('a', { stock: 4 })], { removeOthersExcept: null, readAt: new Date(AT.getTime() + 3_600_000) });
    expect(await readings()).toEqual([
      { slot_id: 'a', day: '2026-03-04', min_stock: 2 },
      { slot_id: 'b', day: '2026-03-04', min_stock: 0 },
      { slot_id: 'a', day: '2026-03-05', min_stock: 4 },
    ]);
  });

  it('writes nothing for a location that is no longer registered', async () => {
    expect(await repo.replaceForLocation('m9', [row('z', { location_id: 'm9' })], { removeOthersExcept: [], readAt: AT })).toEqual({ upserted: 0, removed: 0 });
    expect(await slots()).toEqual([]);
    expect(await h.sql(`SELECT 1 FROM slot_stock_days`)).toEqual([]);
  });

  it('deletes every slot of a location and counts them', async () => {
    await repo.replaceForLocation('m1', [row('a'), row('b')], { removeOthersExcept: null, readAt: AT });
    await repo.replaceForLocation('m2', [row('x', { location_id: 'm2' })], { removeOthersExcept: null, readAt: AT });
    expect(await repo.deleteForLocation('m1')).toBe(2);
    expect(await repo.deleteForLocation('m1')).toBe(0);
    expect((await slots()).map((s) => s.id)).toEqual(['x']);
  });
});
