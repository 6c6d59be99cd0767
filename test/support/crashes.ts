import { DataSource } from 'typeorm';
import { fingerprint } from '../../src/idempotency/idempotency.rules';
import type { TestApp } from './test-app';

/**
 * What a process that died between a claim and recording the partner's answer leaves behind, written into the
 * database so recovery can be tested: the in-progress status, a claim time `agoSeconds` ago (past the lease when
 * over 120) and, on a money path, the held amount.
 */

/** A checkout session: complete_in_progress, its total held. */
export async function crashMidComplete(t: TestApp, id: string, agoSeconds: number): Promise<void> {
  const db = t.app.get(DataSource);
  await db.query(`UPDATE checkout_sessions SET status = 'complete_in_progress', claimed_at = now() - make_interval(secs => $2) WHERE id = $1`, [id, agoSeconds]);
  await db.query(`INSERT INTO spend_ledger (source, ref, amount_fen, state) SELECT 'checkout', id, total_fen, 'held' FROM checkout_sessions WHERE id = $1`, [id]);
}

/** An approval: executing, with the decision being carried out (through the app's connection: both databases). */
export async function crashMidExecution(t: TestApp, id: string, agoSeconds: number, approved = true): Promise<void> {
  await t.app.get(DataSource).query(`UPDATE approvals SET status = 'executing', claimed_at = now() - make_interval(secs => $2), execution = $3::jsonb WHERE id = $1`, [
    id,
    agoSeconds,
    JSON.stringify({ approved, resolver: { channel: 'dashboard' } }),
  ]);
}

/**
 * A price approval whose execution recorded its effect and died before recording the approval's outcome, as a
 * version that wrote them in two transactions left it (the issue-27 soak): the slot at the new price and unlocked,
 * one `price.changed` event naming the approval, the approval still `executing`, claimed `agoSeconds` ago.
 */
export async function crashAfterPriceRecorded(
  t: TestApp,
  a: { approvalId: string; slotId: string; location: string; itemId: string; previousFen: number; priceFen: number },
  agoSeconds: number,
): Promise<void> {
  const db = t.app.get(DataSource);
  await db.query(`UPDATE slots SET price_fen = $2, price_locked = false WHERE id = $1`, [a.slotId, a.priceFen]);
  await db.query(
    `INSERT INTO events (kind, source, summary, reasoning, location, data) VALUES ('price.changed', 'service', $1, 'owner approval was approved', $2, $3::jsonb)`,
    [`price of ${a.itemId} at ${a.location} changed to ${a.priceFen} fen`, a.location, JSON.stringify({ approval_id: a.approvalId, changes: [{ item: a.itemId, previous_fen: a.previousFen, price_fen: a.priceFen }] })],
  );
  await crashMidExecution(t, a.approvalId, agoSeconds);
}

/**
 * What a process that claimed an Idempotency-Key and died before storing its answer leaves: the key `in_flight`,
 * claimed `agoSeconds` ago, bound to this request (operation, resource, raw body: what a retry sends again).
 */
export async function crashWithKeyInFlight(t: TestApp, key: string, req: { operation: string; resourceId: string; body: unknown }, agoSeconds: number): Promise<void> {
  await t.app.get(DataSource).query(
    `INSERT INTO idempotency_keys (key, fingerprint, operation, resource_id, state, created_at, claimed_at, claim_id)
     VALUES ($1, $2, $3, $4, 'in_flight', now() - make_interval(secs => $5), now() - make_interval(secs => $5), 'dead-process')`,
    [key, fingerprint(req.operation, req.resourceId, JSON.stringify(req.body)), req.operation, req.resourceId, agoSeconds],
  );
}

/** The spend-ledger source of replenishment runs. */
export const RUN_SPEND_SOURCE = 'replenishment_run';

/** A replenishment run: placing, its estimated total held (unless `hold` is false: a fulfiller that moves no money). */
export async function crashMidPlace(t: TestApp, id: string, agoSeconds: number, hold = true): Promise<void> {
  const db = t.app.get(DataSource);
  await db.query(`UPDATE replenishment_runs SET status = 'placing', claimed_at = now() - make_interval(secs => $2) WHERE id = $1`, [id, agoSeconds]);
  if (hold) {
    await db.query(`INSERT INTO spend_ledger (source, ref, amount_fen, state) SELECT $2, id, total_cost_fen, 'held' FROM replenishment_runs WHERE id = $1`, [id, RUN_SPEND_SOURCE]);
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
