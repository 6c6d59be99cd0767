import { DataSource } from 'typeorm';
import { queryPrepared } from '../../src/database/prepared';
import { RepositoryHarness, startRepositoryHarness } from '../support/repository-harness';

/** Issue 21: `queryPrepared` runs a named prepared statement on the transaction's connection, or on one it returns. */
describe('queryPrepared on PostgreSQL', () => {
  let h: RepositoryHarness;
  let ds: DataSource;
  beforeAll(async () => {
    h = await startRepositoryHarness([]);
    ds = h.get(DataSource);
  });
  afterAll(() => h.close());

  it('inside a transaction: the statement is prepared once on that connection and answers its rows', async () => {
    const text = 'SELECT $1::int + 1 AS n';
    await ds.transaction(async (m) => {
      expect(await queryPrepared<{ n: number }>(m, text, [1])).toEqual([{ n: 2 }]);
      expect(await queryPrepared<{ n: number }>(m, text, [41])).toEqual([{ n: 42 }]);
      const prepared = (await m.query(`SELECT name FROM pg_prepared_statements WHERE statement = $1`, [text])) as { name: string }[];
      expect(prepared).toHaveLength(1);
      expect(prepared[0].name).toMatch(/^p_[0-9a-f]{24}$/);
    });
  });

  it('outside a transaction: takes a connection and gives it back (more calls than the pool holds)', async () => {
    for (let i = 0; i < 12; i++) expect(await queryPrepared<{ n: number }>(ds.manager, 'SELECT $1::int * 2 AS n', [i])).toEqual([{ n: i * 2 }]);
  });

  it('an error is the statement’s own and rolls the transaction back', async () => {
    await expect(ds.transaction((m) => queryPrepared(m, 'SELECT 1 / $1::int AS n', [0]))).rejects.toThrow(/division by zero/);
  });
});
