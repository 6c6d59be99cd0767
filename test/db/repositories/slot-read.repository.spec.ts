import { SlotReadRepository } from '../../../src/supply-catalog/slot-read.repository';
import { PriceSlotsRepository } from '../../../src/pricing/price-slots.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('SlotReadRepository and PriceSlotsRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let read: SlotReadRepository;
  let prices: PriceSlotsRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([SlotReadRepository, PriceSlotsRepository]);
    read = h.get(SlotReadRepository);
    prices = h.get(PriceSlotsRepository);
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.sql(`DELETE FROM slots; DELETE FROM locations; INSERT INTO locations (id, namespace, name) VALUES ('m1', 'vm', 'Lobby')`);
    const slot = (id: string, loc: string, sku: string, title: string, barcode: string | null) =>
      h.sql(`INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, barcode, price_fen, stock) VALUES ($1, $2, 'vm', 'v', $3, $4, $5, 300, 1)`, [
        id,
        loc,
        sku,
        title,
        barcode,
      ]);
    await slot('m1:2', 'm1', 'vm:cola', 'Cola', '690');
    await slot('m1:1', 'm1', 'vm:chips', 'Chips', null);
    await slot('m2:1', 'm2', 'vm:cola', 'Cola', '690');
  });

  it('reads a location, its slots by id, slots by sku (and location), and the distinct machine skus', async () => {
    expect((await read.location('m1'))?.name).toBe('Lobby');
    expect(await read.location('m9')).toBeNull();
    expect((await read.atLocation('vm', 'm1')).map((s) => s.id)).toEqual(['m1:1', 'm1:2']);
    expect(await read.bySkuIds([])).toEqual([]);
    expect((await read.bySkuIds(['vm:cola'])).map((s) => s.id)).toEqual(['m1:2', 'm2:1']);
    expect((await read.bySkuIds(['vm:cola', 'vm:chips'], 'm1')).map((s) => s.id)).toEqual(['m1:1', 'm1:2']);
    expect(await read.machineSkuRows()).toEqual([
      { skuId: 'vm:chips', title: 'Chips', barcode: null },
      { skuId: 'vm:cola', title: 'Cola', barcode: '690' },
    ]);
  });

  it('sets a price, parks it behind an approval and ends the approval with or without the new price', async () => {
    await prices.setPrice('m1:1', 350);
    await prices.lock('m1:1');
    expect((await prices.find(['m1:1']))[0]).toMatchObject({ priceFen: 350, priceLocked: true });
    await prices.unlock('m1:1');
    expect((await prices.find(['m1:1']))[0]).toMatchObject({ priceFen: 350, priceLocked: false });
    await prices.lock('m1:1');
    await prices.unlock('m1:1', 400);
    expect((await prices.find(['m1:1', 'm1:2'])).map((s) => [s.id, s.priceFen, s.priceLocked]).sort()).toEqual([
      ['m1:1', 400, false],
      ['m1:2', 300, false],
    ]);
  });
});
