import { Logger } from '@nestjs/common';
import type { DataSource, QueryRunner } from 'typeorm';
import { connectionLoss, readOnlyStatement } from '../connection-loss.rules';

const logger = new Logger('ReadRetry');
/**
 * How long a cut read is tried again, as connect-retry waits for a refused connection: a second cut (an idle
 * connection of the pool that died with the first, not yet noticed) is read again too, until the restart is over.
 */
const RERUN_FOR_MS = 5000;
const pause = () => new Promise((r) => setTimeout(r, 50));

/** The internals of TypeORM's PostgresQueryRunner that a runner whose connection died is reset through. */
type Query = (sql: string, params?: unknown[], structured?: boolean) => Promise<unknown>;
type PgRunner = Omit<QueryRunner, 'query'> & {
  mode: 'master' | 'slave';
  isReleased: boolean;
  databaseConnection?: unknown;
  databaseConnectionPromise?: Promise<unknown>;
  releasePostgresConnection(err?: Error): Promise<void>;
  query: Query;
};

/**
 * Is this failure one where running the same read once more is safe: a statement that only reads, outside a
 * transaction, cut by a lost connection (issue 38: a hard restart of PgBouncer or of the primary).
 */
export function rerunnableRead(err: unknown, sql: string, inTransaction: boolean): boolean {
  return !inTransaction && connectionLoss(err) === 'cut' && readOnlyStatement(sql);
}

/**
 * Issue 38: a read-only statement outside a transaction whose connection died in flight is run again on a fresh
 * connection of the primary's pool (for up to 5 s) (opening it waits out a restart: connect-retry, up to 5 s). The dead connection is
 * handed back with its error, so the pool discards it, and the runner connects anew (it stays usable for its caller's
 * next statement). Writes and statements inside a transaction are never run again here (see Tx and the idempotency
 * store). Installed on the data source of a real server; replica reads have their own fallback (StaleReads).
 */
export function rerunReadsOnLostConnection(ds: DataSource): void {
  const driver = ds.driver as unknown as { createQueryRunner(mode: 'master' | 'slave'): QueryRunner };
  const create = driver.createQueryRunner.bind(driver);
  driver.createQueryRunner = (mode) => {
    const created = create(mode);
    if (mode !== 'master') return created;
    const runner = created as unknown as PgRunner;
    const query = runner.query.bind(runner);
    runner.query = async (sql, params, structured) => {
      const deadline = Date.now() + RERUN_FOR_MS;
      for (;;) {
        try {
          return await query(sql, params, structured);
        } catch (err) {
          if (!rerunnableRead(err, sql, runner.isTransactionActive) || Date.now() > deadline) throw err;
          logger.warn(`a read lost its connection (${(err as Error).message}); read again on a fresh connection`);
          await runner.releasePostgresConnection(err as Error);
          runner.isReleased = false;
          runner.databaseConnection = undefined;
          runner.databaseConnectionPromise = undefined;
          await pause();
        }
      }
    };
    return created;
  };
}

/** `read()` again (for up to 5 s) when its connection died under it (a read straight on the pool, outside any transaction). */
export async function readOnceMore<T>(sql: string, read: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + RERUN_FOR_MS;
  for (;;) {
    try {
      return await read();
    } catch (err) {
      if (!rerunnableRead(err, sql, false) || Date.now() > deadline) throw err;
      logger.warn(`a read lost its connection (${(err as Error).message}); read again on a fresh connection`);
      await pause();
    }
  }
}
