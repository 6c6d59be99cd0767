import { DepotRepository } from '../../../src/replenishment/depot/depot.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

/** Issue 37: the depot's page (keyset on sku id, a limit), its totals and the goods the service knows. */
describe('DepotRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: DepotRepository;
  const D = 'depot-main';
  beforeAll(async () => {
    h = await startRepositoryHarness([DepotRepository]);
    repo = h.get(DepotRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql('DELETE FROM depot_stock; DELETE FROM slots'));

  const hold = (sku: string, quantity: number, depot = D) => h.sql(`INSERT INTO depot_stock (depot_id, sku_id, quantity) VALUES ($1, $2, $3)`, [depot, sku, quantity]);
  const slot = (sku: string) =>
    h.sql(`INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock) VALUES ($1, 'm1', 'vm', $2, $3, $4, 100, 0)`, [`m1-${sku}`, sku, `vm:${sku}`, `title ${sku}`]);

  it('pages by sku id after the cursor, at most `limit` goods, leaving out goods held at 0 and other depots', async () => {
    for (const s of ['vm:C', 'vm:A', 'vm:E', 'vm:B']) await hold(s, 2);
    await hold('vm:D', 0);
    await hold('vm:AA', 5, 'depot-other');
    await slot('B');
    const first = await repo.stockPage(D, null, 2);
    expect(first.map((r) => r.skuId)).toEqual(['vm:A', 'vm:B']);
    expect(first[1].title).toBe('title B');
    expect((await repo.stockPage(D, 'vm:B', 2)).map((r) => r.skuId)).toEqual(['vm:C', 'vm:E']);
    expect(await repo.stockPage(D, 'vm:E', 2)).toEqual([]);
    expect(await repo.totals(D)).toEqual({ goods: 4, units: 8 });
  });

  it('knows a good a slot sells or the depot holds a row of, and nothing else', async () => {
    await slot('S1');
    await hold('vm:H1', 0);
    await hold('vm:X1', 3, 'depot-other');
    expect([...(await repo.knownGoods(D, ['vm:S1', 'vm:H1', 'vm:X1', 'vm:FAKE']))].sort()).toEqual(['vm:H1', 'vm:S1']);
    expect(await repo.knownGoods(D, [])).toEqual(new Set());
  });
});
