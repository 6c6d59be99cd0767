import { DataSource, DataSourceOptions } from 'typeorm';
import { ALL_MIGRATIONS } from '../../migrations';

/** `entities`: the app's list (src/entities.ts); a data source that only runs migrations may pass none. */
export function dataSourceOptions(url: string, opts: { entities: Function[]; poolMax?: number; embedded?: boolean; idleMs?: number }): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: opts.entities,
    migrations: ALL_MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    logging: false,
    // gen_random_uuid() is built into PostgreSQL 13+ and PGlite: no extension to install.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    extra: {
      max: opts.poolMax ?? (opts.embedded ? 4 : 10),
      // An idle connection is closed after this and a new one opened on the next query: nothing the service sends
      // may depend on the session it ran on before (issue 28: no named prepared statements).
      idleTimeoutMillis: opts.idleMs ?? 10_000,
      application_name: 'vending-commerce',
    },
  };
}

/** Advisory lock key that serialises migrations when several instances boot on one database. */
const MIGRATION_LOCK = 727_100_001;

export async function runMigrationsLocked(ds: DataSource, opts: { embedded?: boolean } = {}): Promise<void> {
  // The embedded database serves one instance and its pool holds one connection: no lock to take (and holding
  // one on that connection would leave none for the migrations).
  if (opts.embedded) {
    await ds.runMigrations({ transaction: 'each' });
    return;
  }
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
