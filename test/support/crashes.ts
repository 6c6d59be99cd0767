import { sql } from './sql';
import type { TestApp } from './test-app';

/**
 * What a process that died between a claim and recording the partner's answer leaves behind, written into the
 * database so recovery can be tested: the in-progress status, a claim time `agoSeconds` ago (past the lease when
 * over 120) and, on a money path, the held amount.
 */

/** A checkout session: complete_in_progress, its total held. */
export async function crashMidComplete(t: TestApp, id: string, agoSeconds: number): Promise<void> {
  await sql(t, `UPDATE checkout_sessions SET status = 'complete_in_progress', claimed_at = now() - make_interval(secs => $2) WHERE id = $1`, [id, agoSeconds]);
  await sql(t, `INSERT INTO spend_ledger (source, ref, amount_fen, state) SELECT 'checkout', id, total_fen, 'held' FROM checkout_sessions WHERE id = $1`, [id]);
}

/** An approval: executing, with the decision being carried out. */
export async function crashMidExecution(t: TestApp, id: string, agoSeconds: number, approved = true): Promise<void> {
  await sql(t, `UPDATE approvals SET status = 'executing', claimed_at = now() - make_interval(secs => $2), execution = $3::jsonb WHERE id = $1`, [
    id,
    agoSeconds,
    JSON.stringify({ approved, resolver: { channel: 'dashboard' } }),
  ]);
}

/** The spend-ledger source of replenishment runs. */
export const RUN_SPEND_SOURCE = 'replenishment_run';

/** A replenishment run: placing, its estimated total held (unless `hold` is false: a fulfiller that moves no money). */
export async function crashMidPlace(t: TestApp, id: string, agoSeconds: number, hold = true): Promise<void> {
  await sql(t, `UPDATE replenishment_runs SET status = 'placing', claimed_at = now() - make_interval(secs => $2) WHERE id = $1`, [id, agoSeconds]);
  if (hold) {
    await sql(t, `INSERT INTO spend_ledger (source, ref, amount_fen, state) SELECT $2, id, total_cost_fen, 'held' FROM replenishment_runs WHERE id = $1`, [id, RUN_SPEND_SOURCE]);
  }
}

/**
 * A restock request whose sender died while the platform held its answer: `sending`, no answer recorded, claimed
 * `agoSeconds` ago. Written through the app's own connection, so it works on the embedded database too.
 */
export async function crashMidRestock(db: { query(sql: string, params?: unknown[]): Promise<unknown> }, reference: string, agoSeconds: number): Promise<void> {
  await db.query(
    `UPDATE restock_orders SET status = 'sending', accepted = NULL, external_ref = NULL, sent_at = NULL, recovered = NULL,
       claimed_at = date_trunc('milliseconds', now() - make_interval(secs => $2)) WHERE reference = $1`,
    [reference, agoSeconds],
  );
}
