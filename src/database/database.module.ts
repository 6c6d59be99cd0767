import { DynamicModule, Inject, Logger, Module, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import type { Pool } from 'pg';
import { retryRefusedConnects } from './connect-retry';
import { keepConnectionErrorsHeard } from './connection-errors';
import { EMBEDDED_POOL_MAX, startEmbeddedPostgres } from './embedded-postgres';
import { rerunReadsOnLostConnection } from './replicas/read-retry';
import { ReadYourWrites } from './replicas/read-your-writes';
import { ReplicaSet } from './replicas/replica-set';
import { StaleReads } from './replicas/stale-reads';
import { transactionContextModule } from './transaction-context.module';
import { Tx } from './tx';
import { dataSourceOptions, runMigrationsLocked } from './typeorm-options';

/** Where the database is: a real server (`DATABASE_URL`) or the embedded one this process started. */
export interface DatabaseTarget {
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}
export const DATABASE_TARGET = Symbol('DATABASE_TARGET');
/** Options objects built for the embedded database (its migrations run without an advisory lock). */
const EMBEDDED_OPTIONS = new WeakSet<object>();
const POOL_LOGGER = new Logger('DatabasePool');

@Module({})
class DatabaseTargetModule implements OnApplicationShutdown {
  constructor(@Inject(DATABASE_TARGET) private readonly target: DatabaseTarget) {}
  static register(): DynamicModule {
    return {
      module: DatabaseTargetModule,
      providers: [
        {
          provide: DATABASE_TARGET,
          inject: [APP_CONFIG],
          useFactory: async (config: AppConfig): Promise<DatabaseTarget> => {
            if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, close: async () => undefined };
            const pg = await startEmbeddedPostgres(config.dataDir, { memorySeed: config.embeddedMemorySeed });
            return { url: pg.url, embedded: true, close: () => pg.close() };
          },
        },
      ],
      exports: [DATABASE_TARGET],
    };
  }
  async onApplicationShutdown(): Promise<void> {
    // TypeORM closes its pool first (its module shuts down before this one), then the embedded server stops.
    await this.target.close();
  }
}

/**
 * One of the three global modules (with the configuration and logging): every repository reads the DataSource and
 * every service that writes runs in Tx, so the database, its target and its transaction context are there for all.
 */
@Module({})
export class DatabaseModule implements OnModuleDestroy {
  /** `entities`: every entity of the app (src/entities.ts). */
  static forRoot(entities: Function[]): DynamicModule {
    // One instance of each, imported here and re-exported through this global module.
    const target = DatabaseTargetModule.register();
    const transactions = transactionContextModule();
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        target,
        TypeOrmModule.forRootAsync({
          imports: [target],
          inject: [DATABASE_TARGET, APP_CONFIG],
          useFactory: (target: DatabaseTarget, config: AppConfig) => {
            const poolMax = target.embedded ? EMBEDDED_POOL_MAX : 10;
            const replicas = !target.embedded && config.replicas.readUrls.length > 0;
            const options = dataSourceOptions(target.url, { entities, embedded: target.embedded, poolMax, idleMs: config.databasePoolIdleMs, replicas });
            if (target.embedded) EMBEDDED_OPTIONS.add(options);
            return options;
          },
          dataSourceFactory: async (options) => {
            const ds = await new DataSource(options!).initialize();
            const master = (ds.driver as unknown as { master: Pool }).master;
            keepConnectionErrorsHeard(master, (m) => POOL_LOGGER.warn(m));
            // A short restart of the primary or of PgBouncer makes requests wait for a connection, not fail.
            // A read cut by a lost connection (a hard restart) is read again (up to 5 s); writes never are (issue 38).
            if (!EMBEDDED_OPTIONS.has(options!)) {
              retryRefusedConnects(master);
              rerunReadsOnLostConnection(ds);
            }
            await runMigrationsLocked(ds, { embedded: EMBEDDED_OPTIONS.has(options!) });
            return ds;
          },
        }),
        // The transaction of a request or job lives in its async context (Tx), not in EntityManager parameters.
        transactions,
      ],
      providers: [
        {
          // Issue 38: the replicas of DATABASE_READ_URL, probed from boot on (none: a set that is never enabled).
          provide: ReplicaSet,
          inject: [DataSource, APP_CONFIG, DATABASE_TARGET],
          useFactory: async (ds: DataSource, config: AppConfig, target: DatabaseTarget) => {
            const set = new ReplicaSet(ds, target.embedded ? { ...config.replicas, readUrls: [] } : config.replicas);
            await set.start();
            return set;
          },
        },
        { provide: ReadYourWrites, inject: [DataSource, ReplicaSet], useFactory: (ds: DataSource, set: ReplicaSet) => new ReadYourWrites(ds, set.enabled) },
        Tx,
        StaleReads,
      ],
      exports: [DatabaseTargetModule, transactions.module, Tx, StaleReads, ReplicaSet, ReadYourWrites],
    };
  }

  constructor(@Inject(ReplicaSet) private readonly replicas: ReplicaSet) {}

  /** The probes stop and the replicas' pools close before TypeORM closes the primary's. */
  async onModuleDestroy(): Promise<void> {
    await this.replicas.close();
  }
}
