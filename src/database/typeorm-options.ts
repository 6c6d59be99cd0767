import { DataSource, DataSourceOptions } from 'typeorm';
import { ALL_MIGRATIONS } from '../../migrations';

/**
 * `entities`: the app's list (src/entities.ts); a data source that only runs migrations may pass none.
 * `replicas` (issue 38): with any, the data source uses TypeORM's replication with no replica yet and
 * `defaultMode: 'master'` (nothing reads a replica unless it asks for one); ReplicaSet adds the replicas' pools as
 * they answer within the lag bound.
 */
export function dataSourceOptions(
  url: string,
  opts: { entities: Function[]; poolMax?: number; embedded?: boolean; idleMs?: number; replicas?: boolean },
): DataSourceOptions {
  return {
    type: 'postgres',
    ...(opts.replicas ? { replication: { master: { url }, slaves: [], defaultMode: 'master' as const } } : { url }),
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
      // may depend on the session it ran on before (issue 28: no named prepared statements; issue 38: the same holds
      // behind PgBouncer in transaction mode, where consecutive statements may run on different server sessions).
      idleTimeoutMillis: opts.idleMs ?? 10_000,
      application_name: 'vending-commerce',
    },
  };
}

/** Advisory lock key that serialises migrations when several instances boot on one database. */
const MIGRATION_LOCK = 727_100_001;

/**
 * Runs the pending migrations, one instance at a time. The lock is a transaction-level advisory lock held by an open
 * transaction on a connection of its own while the migrations run on others (issue 38): behind PgBouncer in
 * transaction mode a session-level lock would stay on whichever server session took it, and the unlock could run on
 * another one, leaving the lock held for every later boot. A transaction keeps its server session until it ends, and
 * its end (or the connection's death) releases the lock.
 */
export async function runMigrationsLocked(ds: DataSource, opts: { embedded?: boolean } = {}): Promise<void> {
  // The embedded database serves one instance and its pool holds one connection: no lock to take (and holding
  // one on that connection would leave none for the migrations).
  if (opts.embedded) {
    await ds.runMigrations({ transaction: 'each' });
    return;
  }
  const runner = ds.createQueryRunner('master');
  await runner.connect();
  try {
    await runner.startTransaction();
    await runner.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await ds.runMigrations({ transaction: 'each' });
    await runner.commitTransaction();
  } finally {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
  }
}
