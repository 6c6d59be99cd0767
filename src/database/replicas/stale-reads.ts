import { Injectable, Logger } from '@nestjs/common';
import type { PoolClient, QueryConfig } from 'pg';
import { DataSource } from 'typeorm';
import { readRows, readRowsTextTimes, TEXT_TIMES } from '../raw-read';
import { ReadYourWrites } from './read-your-writes';
import { hasReplayed } from './replica-lag.rules';
import { ReplicaSet } from './replica-set';
import { Tx } from '../tx';

/** Why a read went where it went (the `db_reads_total` metric). */
export type ReadRoute =
  | { target: 'replica'; replica: string }
  | { target: 'primary'; reason: 'no_replica' | 'in_transaction' | 'own_write' | 'replica_failed' };

/**
 * Reads that may be a little stale (issue 38): the sales and orders lists, the daily totals, the fleet overview,
 * events pages and the plan inputs that say so. A repository method opts in by calling `rows()` instead of querying
 * the primary; every other read (money, stock, claims, idempotency, guards, approvals) stays on the primary, which is
 * also TypeORM's default here (`replication.defaultMode: 'master'`).
 *
 * A read goes to a replica from TypeORM's `createQueryRunner('slave')` (ReplicaSet keeps only the replicas within the
 * lag bound there) unless: a transaction is open (its reads are the transaction's), no replica serves, or the replica
 * has not replayed the client's last write yet (ReadYourWrites). A read that fails on a replica is read again on the
 * primary (the replica is skipped from then on): a replica never makes a request fail.
 */
@Injectable()
export class StaleReads {
  private readonly logger = new Logger('StaleReads');
  private observer: (route: ReadRoute) => void = () => undefined;

  constructor(
    private readonly ds: DataSource,
    private readonly tx: Tx,
    private readonly replicas: ReplicaSet,
    private readonly writes: ReadYourWrites,
  ) {}

  /** Reports where each read went (MetricsModule counts them). */
  onRead(observer: (route: ReadRoute) => void): void {
    this.observer = observer;
  }

  /**
   * The rows of a read that may be a little stale. `textTimes`: timestamps as the driver's text (readRowsTextTimes);
   * otherwise the driver's default parsing (Dates). Inside a transaction the transaction's manager answers.
   */
  async rows<T>(text: string, values: unknown[], opts: { textTimes?: boolean } = {}): Promise<T[]> {
    if (this.tx.active) {
      this.report({ target: 'primary', reason: 'in_transaction' });
      return (await this.tx.manager.query(text, values)) as T[];
    }
    if (this.replicas.enabled && this.ds.driver.isReplicated) {
      const fromReplica = await this.onReplica<T>({ text, values, ...(opts.textTimes ? { types: TEXT_TIMES } : {}) });
      if (fromReplica) return fromReplica;
    } else {
      this.report({ target: 'primary', reason: 'no_replica' });
    }
    return opts.textTimes ? readRowsTextTimes<T>(this.ds, text, values) : readRows<T>(this.ds, text, values);
  }

  /** The rows from a replica that has the client's writes, or null (the caller reads the primary). */
  private async onReplica<T>(config: QueryConfig): Promise<T[] | null> {
    if (this.driverSlaves() === 0) {
      this.report({ target: 'primary', reason: 'no_replica' });
      return null;
    }
    const needed = await this.writes.neededLsn();
    if (needed === 'primary') {
      this.report({ target: 'primary', reason: 'own_write' });
      return null;
    }
    const runner = this.ds.createQueryRunner('slave');
    let replica: { name: string; replayed: string | null } | null = null;
    let failure: Error | null = null;
    try {
      const client = (await runner.connect()) as PoolClient & { connectionParameters?: { host?: string; port?: number; database?: string } };
      replica = this.replicas.replicaOf(client.connectionParameters ?? {});
      if (!replica) {
        // The driver had no replica left when it was asked (it answers the primary then).
        this.report({ target: 'primary', reason: 'no_replica' });
        return (await client.query(config)).rows as T[];
      }
      if (!hasReplayed(replica.replayed, needed)) {
        // The last probe is older than the client's write: ask the replica itself before giving up on it.
        const r = await client.query({ text: 'SELECT pg_last_wal_replay_lsn()::text AS lsn' });
        if (!hasReplayed((r.rows[0] as { lsn: string | null } | undefined)?.lsn ?? null, needed)) {
          this.report({ target: 'primary', reason: 'own_write' });
          return null;
        }
      }
      const rows = (await client.query(config)).rows as T[];
      this.report({ target: 'replica', replica: replica.name });
      return rows;
    } catch (err) {
      failure = err as Error;
      if (replica) this.replicas.markDown(replica.name);
      this.logger.warn(`a read on ${replica?.name ?? 'a replica'} failed (${failure.message}); read on the primary`);
      this.report({ target: 'primary', reason: 'replica_failed' });
      return null;
    } finally {
      // A connection that failed is discarded, not returned to the replica's pool.
      const pgRunner = runner as typeof runner & { releasePostgresConnection?: (e?: Error) => Promise<void> };
      if (failure && pgRunner.releasePostgresConnection) await pgRunner.releasePostgresConnection(failure).catch(() => undefined);
      else await runner.release().catch(() => undefined);
    }
  }

  private driverSlaves(): number {
    return (this.ds.driver as unknown as { slaves: unknown[] }).slaves.length;
  }

  private report(route: ReadRoute): void {
    this.observer(route);
  }
}
