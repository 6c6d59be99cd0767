import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrationsLocked } from '../../src/database/typeorm-options';
import { ALL_ENTITIES } from '../../src/entities';
import { adminQuery, urlFor } from '../support/pg';

/**
 * Drift check: after every migration has run on an empty database, the entities need no further change.
 * On failure the message is the SQL a new migration must contain.
 */
describe('schema drift', () => {
  const name = `drift_${process.pid}_${Date.now().toString(36)}`;
  let ds: DataSource;

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE "${name}"`);
    ds = new DataSource(dataSourceOptions(urlFor(name), { entities: ALL_ENTITIES, poolMax: 2 }));
    await ds.initialize();
    await runMigrationsLocked(ds);
  });

  afterAll(async () => {
    await ds?.destroy();
    await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it('the migrations create exactly the schema the entities declare', async () => {
    const sql = await ds.driver.createSchemaBuilder().log();
    const up = sql.upQueries.map((q) => q.query + ';').join('\n');
    if (up) console.log(`-- a migration is missing:\n${up}\n-- down:\n${sql.downQueries.map((q) => q.query + ';').reverse().join('\n')}`);
    expect(up).toBe('');
  });
});
