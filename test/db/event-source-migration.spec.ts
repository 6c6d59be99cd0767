import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { EventSource1763800000730 } from '../../migrations/1763800000730-event-source';
import { dataSourceOptions } from '../../src/database/typeorm-options';
import { createTestDatabase } from '../support/pg';

/**
 * Issue 17: the events `source` migration on rows written before it. A client's posted event never had `data`, so a
 * row with data is the service's; a row without is marked `client` (the safe side), whatever its kind.
 */
describe('events.source migration', () => {
  let ds: DataSource;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    ds = new DataSource(dataSourceOptions(db.url, { entities: [], poolMax: 2 }));
    await ds.initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await drop?.();
  });

  it('marks rows with data as the service’s and rows without as the client’s, and makes the column required', async () => {
    const migration = new EventSource1763800000730();
    const q = ds.createQueryRunner();
    try {
      await migration.down(q); // the table as it was before the migration
      await q.query(`INSERT INTO events (kind, summary, reasoning, data) VALUES
        ('kill_switch', 'engaged', 'r', '{"engaged":true}'),
        ('approval.resolved', 'posted', 'r', NULL),
        ('note', 'posted', 'r', NULL)`);
      await migration.up(q);
      const rows = (await q.query(`SELECT kind, summary, source FROM events ORDER BY seq`)) as { kind: string; source: string }[];
      expect(rows.map((r) => [r.kind, r.source])).toEqual([
        ['kill_switch', 'service'],
        ['approval.resolved', 'client'],
        ['note', 'client'],
      ]);
      await expect(q.query(`INSERT INTO events (kind, summary, reasoning) VALUES ('x', 's', 'r')`)).rejects.toThrow(/source/);
    } finally {
      await q.release();
    }
  });
});
