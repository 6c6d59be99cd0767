import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, QueryRunner } from 'typeorm';
import { DATABASE_TARGET } from '../database/database.module';
import type { DatabaseTarget } from '../database/database.module';
import { InProcessLocks, jobLockKey } from './coordination.rules';

export type ExclusiveOutcome<T> = { ran: true; result: T } | { ran: false };

/**
 * Runs a scheduled job at most once at a time across every instance sharing the database, so each tick runs once.
 *
 * On a real PostgreSQL server: a transaction-level advisory lock (`pg_try_advisory_xact_lock`) taken in a transaction
 * opened on a dedicated pooled connection and kept open for the whole job; committing it releases the lock. The job's
 * own queries run on other pooled connections. A transaction, not a session lock (issue 38): behind PgBouncer in
 * transaction mode an open transaction keeps its server session, where a session lock would stay on a server session
 * that other clients then use, and its unlock could run on another one. The open transaction takes no snapshot
 * between statements and writes nothing, so it holds back no vacuum. If that connection dies mid-job the server
 * frees the lock (another instance may then start the next tick); the job itself is not interrupted.
 * On the embedded database advisory locks do not exclude (one shared backend), and the embedded mode is a single
 * instance by construction, so a per-name in-process lock is enough. The in-process lock is also taken first on a
 * real server: a second call in the same process skips without using a connection.
 *
 * Never waits: a caller that finds the lock taken gets `{ ran: false }` and skips this tick.
 */
@Injectable()
export class JobLockService {
  private readonly logger = new Logger(JobLockService.name);
  private readonly local = new InProcessLocks();

  constructor(
    private readonly ds: DataSource,
    @Inject(DATABASE_TARGET) private readonly target: DatabaseTarget,
  ) {}

  async runExclusive<T>(name: string, fn: () => Promise<T>): Promise<ExclusiveOutcome<T>> {
    const releaseLocal = this.local.tryAcquire(name);
    if (!releaseLocal) {
      this.logger.debug(`job ${name}: already running in this instance, skipped`);
      return { ran: false };
    }
    try {
      if (this.target.embedded) return { ran: true, result: await fn() };
      return await this.runWithAdvisoryLock(name, fn);
    } finally {
      releaseLocal();
    }
  }

  private async runWithAdvisoryLock<T>(name: string, fn: () => Promise<T>): Promise<ExclusiveOutcome<T>> {
    const key = jobLockKey(name);
    const runner = this.ds.createQueryRunner('master');
    await runner.connect();
    let locked = false;
    try {
      await runner.startTransaction();
      const rows = (await runner.query('SELECT pg_try_advisory_xact_lock($1::bigint) AS locked', [key])) as { locked: boolean }[];
      locked = rows[0]?.locked === true;
    } catch (err) {
      await this.release(runner, err as Error);
      throw err;
    }
    if (!locked) {
      await this.unlock(name, runner);
      this.logger.debug(`job ${name}: held by another instance, skipped`);
      return { ran: false };
    }
    try {
      return { ran: true, result: await fn() };
    } finally {
      await this.unlock(name, runner);
    }
  }

  /** Ends the lock's transaction (which releases the lock) and returns the connection. */
  private async unlock(name: string, runner: QueryRunner): Promise<void> {
    try {
      await runner.commitTransaction();
      await this.release(runner);
    } catch (err) {
      // The lock's connection failed (the server has ended its transaction, and the lock with it): discard it.
      this.logger.warn(`job ${name}: the lock's transaction did not end cleanly (${(err as Error).message}); connection discarded`);
      await this.release(runner, err as Error);
    }
  }

  private async release(runner: QueryRunner, err?: Error): Promise<void> {
    const pgRunner = runner as QueryRunner & { releasePostgresConnection?: (e?: Error) => Promise<void> };
    if (err && typeof pgRunner.releasePostgresConnection === 'function') {
      await pgRunner.releasePostgresConnection(err).catch(() => undefined);
      return;
    }
    await runner.release().catch(() => undefined);
  }
}
