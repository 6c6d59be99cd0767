import { Injectable } from '@nestjs/common';
import { Tx } from '../database/tx';

export interface VisitLocationRow {
  id: string;
  name: string;
  lastSyncedAt: Date | null;
  lastDeliveredAt: Date | null;
}

export interface OpenRunLineRow {
  runId: string;
  runStatus: string;
  slotId: string;
  units: number;
}

/** Run statuses whose goods are still to be loaded: not delivered, not rejected. */
export const OPEN_RUN_STATUSES = ['awaiting_approval', 'ready', 'placing', 'placed'] as const;

/** The visits' reads: the roster with its last sync and last delivery, and the slot lines of open runs. Queries only. */
@Injectable()
export class VisitsRepository {
  constructor(private readonly tx: Tx) {}

  async locations(): Promise<VisitLocationRow[]> {
    const rows = (await this.tx.manager.query(
      `SELECT l.id, l.name, s.last_synced_at, d.last_delivered_at
         FROM locations l
         LEFT JOIN (SELECT location_id, max(synced_at) AS last_synced_at FROM slots GROUP BY location_id) s ON s.location_id = l.id
         LEFT JOIN (SELECT line->>'location' AS location_id, max(r.delivered_at) AS last_delivered_at
                      FROM replenishment_runs r CROSS JOIN LATERAL jsonb_array_elements(r.lines) line
                     WHERE r.status = 'delivered' GROUP BY 1) d ON d.location_id = l.id
        ORDER BY l.id`,
    )) as { id: string; name: string; last_synced_at: string | Date | null; last_delivered_at: string | Date | null }[];
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      lastSyncedAt: r.last_synced_at ? new Date(r.last_synced_at) : null,
      lastDeliveredAt: r.last_delivered_at ? new Date(r.last_delivered_at) : null,
    }));
  }

  /** Every slot line of an open run: placed runs first (their goods are on the way), then newest first. */
  async openRunLines(): Promise<OpenRunLineRow[]> {
    const rows = (await this.tx.manager.query(
      `SELECT r.id AS run_id, r.status, line->>'slot_id' AS slot_id, (line->>'quantity_each')::int AS units
         FROM replenishment_runs r CROSS JOIN LATERAL jsonb_array_elements(r.lines) line
        WHERE r.status = ANY($1::text[]) AND (line->>'quantity_each')::int > 0
        ORDER BY CASE r.status WHEN 'placed' THEN 0 WHEN 'placing' THEN 1 WHEN 'ready' THEN 2 ELSE 3 END, r.created_at DESC, r.id`,
      [[...OPEN_RUN_STATUSES]],
    )) as { run_id: string; status: string; slot_id: string; units: number }[];
    return rows.map((r) => ({ runId: r.run_id, runStatus: r.status, slotId: r.slot_id, units: Number(r.units) }));
  }
}
