import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { leaseExpiredSql } from '../claims/lease.sql';

/**
 * Where each kind of money claim is held: its table and the status of a claimed row (the claims of
 * src/claims; an idempotency key is claimed while its first request runs).
 */
const CLAIMED: { kind: string; table: string; where: string }[] = [
  { kind: 'checkout', table: 'checkout_sessions', where: `status = 'complete_in_progress'` },
  { kind: 'replenishment_run', table: 'replenishment_runs', where: `status = 'placing'` },
  { kind: 'approval', table: 'approvals', where: `status = 'executing'` },
  { kind: 'restock', table: 'restock_orders', where: `status = 'sending'` },
  { kind: 'idempotency_key', table: 'idempotency_keys', where: `state = 'in_flight'` },
];

/** The reads of a metrics scrape (issue 28): counts only, on the DataSource (no transaction), one statement each. */
@Injectable()
export class MetricsRepository {
  constructor(private readonly ds: DataSource) {}

  /** Claimed rows per kind: all of them, and those past the lease (`leaseSecs`, the database clock). */
  async claims(leaseSecs: number): Promise<{ kind: string; held: number; past_lease: number }[]> {
    const parts = CLAIMED.map(
      (c) => `SELECT '${c.kind}' AS kind, count(*)::int AS held, (count(*) FILTER (WHERE ${leaseExpiredSql('claimed_at', '$1')}))::int AS past_lease FROM ${c.table} WHERE ${c.where}`,
    );
    return this.ds.query(parts.join(' UNION ALL '), [leaseSecs]);
  }

  async approvalsPending(): Promise<number> {
    const rows: { n: number }[] = await this.ds.query(`SELECT count(*)::int AS n FROM approvals WHERE status = 'pending'`);
    return rows[0].n;
  }

  /** The pool's connections now (pg's Pool under TypeORM's driver). */
  pool(): { max: number; total: number; idle: number; waiting: number } | null {
    const max = Number((this.ds.options.extra as { max?: number } | undefined)?.max ?? 10);
    const p = (this.ds.driver as unknown as { master?: { totalCount: number; idleCount: number; waitingCount: number } }).master;
    return p ? { max, total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount } : null;
  }
}
