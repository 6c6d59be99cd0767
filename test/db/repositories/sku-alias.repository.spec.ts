import { SkuAliasRepository } from '../../../src/skus/sku-alias.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('SkuAliasRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: SkuAliasRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([SkuAliasRepository]);
    repo = h.get(SkuAliasRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql('DELETE FROM sku_aliases'));

  const at = new Date('2026-01-01T00:00:00Z');
  const pairs = async (ids: string[]) => (await repo.touching(ids)).map((p) => `${p.skuA}~${p.skuB}:${p.source}`).sort();

  it('finds every pair touching the ids, from either column', async () => {
    await h.tx.run(() => repo.replaceFor('a', [{ skuA: 'a', skuB: 'b', source: 'barcode', confirmedAt: at }]));
    await h.tx.run(() => repo.replaceFor('c', [{ skuA: 'b', skuB: 'c', source: 'name', confirmedAt: at }]));
    expect(await repo.touching([])).toEqual([]);
    expect(await pairs(['b'])).toEqual(['a~b:barcode', 'b~c:name']);
    expect(await pairs(['a', 'x'])).toEqual(['a~b:barcode']);
    const [stored] = await repo.touching(['a']);
    expect(stored.confirmedAt).toEqual(at);
  });

  it('replaces every pair touching an id, from either column, and overwrites an existing pair', async () => {
    await h.tx.run(() => repo.replaceFor('b', [{ skuA: 'a', skuB: 'b', source: 'barcode', confirmedAt: at }, { skuA: 'b', skuB: 'c', source: 'name', confirmedAt: at }]));
    await h.tx.run(() => repo.replaceFor('d', [{ skuA: 'd', skuB: 'e', source: 'name', confirmedAt: at }]));
    await h.tx.run(() => repo.replaceFor('b', [{ skuA: 'b', skuB: 'd', source: 'fact', confirmedAt: at }]));
    expect(await pairs(['a', 'b', 'c', 'd', 'e'])).toEqual(['b~d:fact', 'd~e:name']);
    await h.tx.run(() => repo.replaceFor('e', [{ skuA: 'd', skuB: 'e', source: 'fact', confirmedAt: at }]));
    expect(await pairs(['e'])).toEqual(['d~e:fact']);
    expect(await h.sql(`SELECT written_by FROM sku_aliases WHERE sku_a = 'd' AND sku_b = 'e'`)).toEqual([{ written_by: 'e' }]);
  });
});
