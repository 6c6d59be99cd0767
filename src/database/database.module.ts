import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { EMBEDDED_POOL_MAX, startEmbeddedPostgres } from './embedded-postgres';
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

@Global()
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

@Module({})
export class DatabaseModule {
  /** `entities`: every entity of the app (src/entities.ts). */
  static forRoot(entities: Function[]): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        DatabaseTargetModule.register(),
        TypeOrmModule.forRootAsync({
          inject: [DATABASE_TARGET, APP_CONFIG],
          useFactory: (target: DatabaseTarget, config: AppConfig) => {
            const poolMax = target.embedded ? EMBEDDED_POOL_MAX : 10;
            const options = dataSourceOptions(target.url, { entities, embedded: target.embedded, poolMax, idleMs: config.databasePoolIdleMs });
            if (target.embedded) EMBEDDED_OPTIONS.add(options);
            return options;
          },
          dataSourceFactory: async (options) => {
            const ds = await new DataSource(options!).initialize();
            await runMigrationsLocked(ds, { embedded: EMBEDDED_OPTIONS.has(options!) });
            return ds;
          },
        }),
        // The transaction of a request or job lives in its async context (Tx), not in EntityManager parameters.
        transactionContextModule(),
      ],
      providers: [Tx],
      exports: [DatabaseTargetModule, Tx],
    };
  }
}
