import { SlotRow, SlotsRepository } from '../../../src/inventory/slots.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('SlotsRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: SlotsRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([SlotsRepository]);
    repo = h.get(SlotsRepository);
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.sql('DELETE FROM locations; DELETE FROM slots');
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
    expect(await repo.replaceForLocation('m1', [row('a', { barcode: '690', capacity: 10 }), row('b')], { removeOthersExcept: null })).toEqual({ upserted: 2, removed: 0 });
    expect(await repo.replaceForLocation('m1', [row('a', { stock: 2 })], { removeOthersExcept: null })).toEqual({ upserted: 1, removed: 0 });
    expect(await slots()).toEqual([
      { id: 'a', stock: 2, barcode: '690', capacity: 10 },
      { id: 'b', stock: 5, barcode: null, capacity: null },
    ]);
  });

  it('removes the slots the read no longer lists, except the kept ones and those whose price awaits approval; counts them', async () => {
    await repo.replaceForLocation('m1', [row('a'), row('b'), row('c'), row('d'), row('e')], { removeOthersExcept: null });
    await repo.replaceForLocation('m2', [row('x', { location_id: 'm2' })], { removeOthersExcept: null });
    await h.sql(`UPDATE slots SET price_locked = true WHERE id = 'd'`);
    expect(await repo.replaceForLocation('m1', [row('a')], { removeOthersExcept: ['b'] })).toEqual({ upserted: 1, removed: 2 });
    expect((await slots()).map((s) => s.id)).toEqual(['a', 'b', 'd', 'x']);
    expect(await repo.replaceForLocation('m1', [row('a')], { removeOthersExcept: ['b'] })).toEqual({ upserted: 1, removed: 0 });
  });

  it('writes nothing for a location that is no longer registered', async () => {
    expect(await repo.replaceForLocation('m9', [row('z', { location_id: 'm9' })], { removeOthersExcept: [] })).toEqual({ upserted: 0, removed: 0 });
    expect(await slots()).toEqual([]);
  });

  it('deletes every slot of a location and counts them', async () => {
    await repo.replaceForLocation('m1', [row('a'), row('b')], { removeOthersExcept: null });
    await repo.replaceForLocation('m2', [row('x', { location_id: 'm2' })], { removeOthersExcept: null });
    expect(await repo.deleteForLocation('m1')).toBe(2);
    expect(await repo.deleteForLocation('m1')).toBe(0);
    expect((await slots()).map((s) => s.id)).toEqual(['x']);
  });
});
