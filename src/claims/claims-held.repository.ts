import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { leaseExpiredSql } from './lease.sql';

/**
 * Where each kind of money claim is held: its table and the status of a claimed row (an idempotency key is claimed
 * while its first request runs).
 */
const CLAIMED: { kind: string; table: string; where: string }[] = [
  { kind: 'checkout', table: 'checkout_sessions', where: `status = 'complete_in_progress'` },
  { kind: 'replenishment_run', table: 'replenishment_runs', where: `status = 'placing'` },
  { kind: 'approval', table: 'approvals', where: `status = 'executing'` },
  { kind: 'restock', table: 'restock_orders', where: `status = 'sending'` },
  { kind: 'idempotency_key', table: 'idempotency_keys', where: `state = 'in_flight'` },
];

/** The claims a metrics scrape reports (issue 28): counts only, on the DataSource (no transaction), one statement. */
@Injectable()
export class ClaimsHeldRepository {
  constructor(private readonly ds: DataSource) {}

  /** Claimed rows per kind: all of them, and those past the lease (`leaseSecs`, the database clock). */
  async count(leaseSecs: number): Promise<{ kind: string; held: number; past_lease: number }[]> {
    const parts = CLAIMED.map(
      (c) => `SELECT '${c.kind}' AS kind, count(*)::int AS held, (count(*) FILTER (WHERE ${leaseExpiredSql('claimed_at', '$1')}))::int AS past_lease FROM ${c.table} WHERE ${c.where}`,
    );
    return this.ds.query(parts.join(' UNION ALL '), [leaseSecs]);
  }
}
