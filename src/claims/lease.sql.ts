import { InsertQueryBuilder, ObjectLiteral, SelectQueryBuilder, UpdateQueryBuilder } from 'typeorm';
import { returnedRows } from '../database/returning';

/**
 * The lease of a claim in SQL, on the database clock (so instances with skewed clocks agree): one formula for every
 * claimed row (checkout sessions, runs, approvals, idempotency keys). `claimLeaseMs` (claim.rules.ts) says how long.
 */

/** The claim stamped in `column` has outlived a lease of `secs` seconds (a parameter); a claim with no time has too. */
export function leaseExpiredSql(column: string, secs: string): string {
  return `(${column} IS NULL OR ${column} < now() - make_interval(secs => ${secs}))`;
}

/**
 * Rows in `status` whose claim is past the lease: those without a claim time first, then the oldest claim (then
 * `tiebreak`, the id unless said), at most `limit`. `qb` selects the table under `alias`, with a `claimed_at` column.
 */
export function expiredClaims<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, alias: string, status: string, leaseMs: number, limit: number, tiebreak = 'id'): Promise<T[]> {
  return qb
    .where(`${alias}.status = :claimedStatus`, { claimedStatus: status })
    .andWhere(leaseExpiredSql(`${alias}.claimed_at`, ':leaseSecs'), { leaseSecs: leaseMs / 1000 })
    .orderBy(`${alias}.claimed_at`, 'ASC', 'NULLS FIRST')
    .addOrderBy(`${alias}.${tiebreak}`, 'ASC')
    .limit(limit)
    .getMany();
}

/** A claim time as stamped and compared: the database clock to the millisecond, so it compares equal once read back. */
export const CLAIM_TIME_NOW = "date_trunc('milliseconds', now())";

/** The claim stamped `claimedAt` (a parameter) still holds the row; a null matches a claim made without a time. */
export function claimHeldSql(column: string, claimedAt: string): string {
  return `date_trunc('milliseconds', ${column}) IS NOT DISTINCT FROM ${claimedAt}`;
}

/** The row `:id`, in `status`, still held by the claim stamped `:claimedAt` (its `claimed_at`; null: made without a time). */
export function heldClaimWhere(status: string): string {
  return `id = :id AND status = '${status}' AND ${claimHeldSql('claimed_at', ':claimedAt')}`;
}

/**
 * Runs an UPDATE of the row `id` (its `set`: a settlement, a release) only while it is in `status` and the claim
 * stamped `claimedAt` still holds it (a recovery or a later attempt may have taken it meanwhile); whether it moved.
 */
export async function updateWhileHeld<T extends ObjectLiteral>(qb: UpdateQueryBuilder<T>, status: string, id: string, claimedAt: Date | null): Promise<boolean> {
  const res = await qb.where(heldClaimWhere(status), { id, claimedAt }).execute();
  return (res.affected ?? 0) > 0;
}

/**
 * Runs a statement that stamps a claim (`claimedAt: () => CLAIM_TIME_NOW` in its `set` or `values`) and answers the
 * stored claim time, or null when no row was claimed (an UPDATE that matched nothing, an INSERT ... ON CONFLICT DO
 * NOTHING that was ignored).
 */
export async function stampClaim<T extends ObjectLiteral>(qb: UpdateQueryBuilder<T> | InsertQueryBuilder<T>): Promise<Date | null> {
  const [row] = returnedRows<{ claimed_at: Date | string }>(await qb.returning('claimed_at').execute());
  return row ? new Date(row.claimed_at) : null;
}
