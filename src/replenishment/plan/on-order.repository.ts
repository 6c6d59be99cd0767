import { Injectable } from '@nestjs/common';
import { Tx } from '../../database/tx';
import type { LaterOrder, RunLineOrderRow } from './inventory-position.rules';

/**
 * A purchase order of the run completed for the line's supplier (session id `<run>.<supplier>`). `kinds`: the
 * parameter holding the kinds that buy through purchase orders (the caller asks RunFulfillers.kindsWith).
 */
const PO_COMPLETED = (kinds: string) => `(r.fulfiller_kind = ANY(${kinds}::text[]) AND EXISTS (
  SELECT 1 FROM checkout_sessions cs WHERE cs.run_id = r.id AND cs.status = 'completed' AND cs.id = r.id || '.' || (l->'supply'->>'ordered_from')))`;
const ANY_PO_COMPLETED = (kinds: string) => `(r.fulfiller_kind = ANY(${kinds}::text[]) AND EXISTS (
  SELECT 1 FROM checkout_sessions cs WHERE cs.run_id = r.id AND cs.status = 'completed'))`;
const LINE_CLOSED = `EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(r.delivered, '[]'::jsonb)) d WHERE d->>'slot_id' = l->>'slot_id')`;

/**
 * What is on order (queries only; inventory-position.rules.ts decides what counts): the lines of runs whose order
 * exists or may exist, and the runs ordered after a draft was made.
 */
@Injectable()
export class OnOrderRepository {
  constructor(private readonly tx: Tx) {}

  /**
   * Lines that may be on order: placing or placed runs, and runs of `purchaseOrderKinds` (those that buy through
   * purchase orders) with a completed purchase order.
   */
  async openLines(purchaseOrderKinds: readonly string[], location?: string, slotIds?: string[]): Promise<RunLineOrderRow[]> {
    const rows = (await this.tx.manager.query(
      `SELECT r.id AS run_id, r.status, l->>'slot_id' AS slot_id, l->'item'->>'id' AS sku_id, COALESCE((l->>'ordered_each')::int, 0) AS ordered_each, (l->>'quantity_each')::int AS quantity_each,
              ${LINE_CLOSED} AS closed, ${PO_COMPLETED('$3')} AS po_completed
       FROM replenishment_runs r CROSS JOIN LATERAL jsonb_array_elements(r.lines) l
       WHERE (r.status IN ('placing', 'placed') OR (r.status IN ('ready', 'awaiting_approval') AND ${ANY_PO_COMPLETED('$3')}))
         AND ($1::text IS NULL OR l->>'location' = $1)
         AND ($2::text[] IS NULL OR l->>'slot_id' = ANY($2::text[]))
       ORDER BY r.created_at, r.id`,
      [location ?? null, slotIds ?? null, [...purchaseOrderKinds]],
    )) as RunLineOrderRow[];
    return rows.map((r) => ({ ...r, ordered_each: Number(r.ordered_each), quantity_each: r.quantity_each === null || r.quantity_each === undefined ? undefined : Number(r.quantity_each) }));
  }

  /**
   * Runs other than `runId` claimed after `since` (the draft's creation), with their slots: a run is claimed
   * (`claimed_at`, `placing`) before anything is sent, and a plan drafted while it was placing already counted it.
   * `purchaseOrderKinds`: as for openLines.
   */
  async orderedSince(runId: string, since: Date, purchaseOrderKinds: readonly string[]): Promise<LaterOrder[]> {
    const rows = (await this.tx.manager.query(
      `SELECT r.id, r.status,
              ARRAY(SELECT l->>'slot_id' FROM jsonb_array_elements(r.lines) l) AS slot_ids,
              EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(r.delivered, '[]'::jsonb)) d WHERE COALESCE((d->>'quantity')::int, 0) > 0) AS received_any,
              ${ANY_PO_COMPLETED('$3')} AS po_completed
       FROM replenishment_runs r
       WHERE r.id <> $1 AND COALESCE(r.claimed_at, r.placed_at) > $2`,
      [runId, since, [...purchaseOrderKinds]],
    )) as LaterOrder[];
    return rows;
  }

  /**
   * Serialises the claims of runs (held to the end of the transaction), so two runs drafted for the same slots
   * cannot both pass the stale check at once. The embedded database runs one transaction at a time anyway.
   */
  async lockClaims(): Promise<void> {
    await this.tx.manager.query('SELECT pg_advisory_xact_lock($1)', [RUN_CLAIM_LOCK]);
  }
}

const RUN_CLAIM_LOCK = 727_100_725;
