import 'reflect-metadata';
import { Provider, Type } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Client } from 'pg';
import { ALL_ENTITIES } from '../../src/entities';
import { transactionContextModule } from '../../src/database/transaction-context.module';
import { DataSource } from 'typeorm';
import { Tx } from '../../src/database/tx';
import { ReadYourWrites } from '../../src/database/replicas/read-your-writes';
import { ReplicaSet } from '../../src/database/replicas/replica-set';
import { StaleReads } from '../../src/database/replicas/stale-reads';
import { dataSourceOptions } from '../../src/database/typeorm-options';
import { createTestDatabase } from './pg';

/**
 * The repository tier: repositories against a real, migrated PostgreSQL database (a copy of the jest template), with
 * the project's own data source options and transaction context, and nothing else: no HTTP, no app, no services.
 */
export interface RepositoryHarness {
  /** A repository (or Tx) of the module. */
  get<T>(type: Type<T>): T;
  tx: Tx;
  /** One statement on a connection of the harness's own, outside any transaction: fixtures and checks. */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function startRepositoryHarness(repositories: Provider[]): Promise<RepositoryHarness> {
  const db = await createTestDatabase();
  let module: TestingModule | undefined;
  const client = new Client({ connectionString: db.url });
  try {
    module = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot(dataSourceOptions(db.url, { entities: ALL_ENTITIES, poolMax: 4 })),
        TypeOrmModule.forFeature(ALL_ENTITIES),
        transactionContextModule(),
      ],
      providers: [
        Tx,
        // Issue 38: stale-ok reads, with no replica here (they read the primary).
        { provide: ReplicaSet, inject: [DataSource], useFactory: (ds: DataSource) => new ReplicaSet(ds, { readUrls: [], maxLagMs: 1000, probeMs: 1000, listenUrl: null }) },
        { provide: ReadYourWrites, inject: [DataSource], useFactory: (ds: DataSource) => new ReadYourWrites(ds, false) },
        StaleReads,
        ...repositories,
      ],
    }).compile();
    await module.init();
    await client.connect();
  } catch (err) {
    await module?.close();
    await db.drop();
    throw err;
  }
  const ready = module;
  return {
    get: <T>(type: Type<T>) => ready.get(type),
    tx: ready.get(Tx),
    sql: async <T>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as T[],
    close: async () => {
      await client.end();
      await ready.close();
      await db.drop();
    },
  };
}
