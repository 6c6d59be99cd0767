import { PriceSlotsRepository } from '../../../src/pricing/price-slots.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('PriceSlotsRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: PriceSlotsRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([PriceSlotsRepository]);
    repo = h.get(PriceSlotsRepository);
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.sql('DELETE FROM slots');
    for (const id of ['m1:1', 'm1:2', 'm1:3']) {
      await h.sql(`INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock) VALUES ($1, 'm1', 'vm', $1, 'vm:' || $1, 't', 300, 1)`, [id]);
    }
  });

  type Stored = { id: string; price_fen: string; price_locked: boolean; price_reference_fen: string | null; price_reference_at: Date | null; price_reference_source: string | null };
  const stored = async (id: string) => (await h.sql<Stored>(`SELECT id, price_fen, price_locked, price_reference_fen, price_reference_at, price_reference_source FROM slots WHERE id = $1`, [id]))[0];
  const at = new Date('2026-03-07T00:00:00Z');

  it('finds the named slots only, with their prices as numbers', async () => {
    const found = await repo.find(['m1:2', 'm1:1', 'm1:none']);
    expect(found.map((s) => s.id).sort()).toEqual(['m1:1', 'm1:2']);
    expect(found[0].priceFen).toBe(300);
    expect(found[0].priceLocked).toBe(false);
  });

  it('sets a price, and the day reference with it only when one is given', async () => {
    await repo.setPrice('m1:1', 350);
    expect(await stored('m1:1')).toMatchObject({ price_fen: '350', price_reference_fen: null, price_reference_source: null });
    await repo.setPrice('m1:1', 400, { fen: 350, at, source: 'day_start' });
    expect(await stored('m1:1')).toMatchObject({ price_fen: '400', price_reference_fen: '350', price_reference_at: at, price_reference_source: 'day_start' });
    await repo.setPrice('m1:1', 420);
    expect(await stored('m1:1')).toMatchObject({ price_fen: '420', price_reference_fen: '350', price_reference_source: 'day_start' });
    expect(await stored('m1:2')).toMatchObject({ price_fen: '300', price_reference_fen: null });
  });

  it('locks a price behind an approval and unlocks it with or without the approved price', async () => {
    await repo.lock('m1:1');
    await repo.lock('m1:2');
    expect(await stored('m1:1')).toMatchObject({ price_locked: true, price_fen: '300' });
    expect(await stored('m1:3')).toMatchObject({ price_locked: false });
    await repo.unlock('m1:1');
    expect(await stored('m1:1')).toMatchObject({ price_locked: false, price_fen: '300', price_reference_fen: null });
    await repo.unlock('m1:2', 500, { fen: 500, at, source: 'approved' });
    expect(await stored('m1:2')).toMatchObject({ price_locked: false, price_fen: '500', price_reference_fen: '500', price_reference_at: at, price_reference_source: 'approved' });
    await repo.lock('m1:3');
    await repo.unlock('m1:3', 320);
    expect(await stored('m1:3')).toMatchObject({ price_locked: false, price_fen: '320', price_reference_fen: null });
  });
});
