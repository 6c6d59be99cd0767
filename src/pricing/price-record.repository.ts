import { Injectable } from '@nestjs/common';
import { Tx } from '../database/tx';

/** One recorded change of one item's price (a line of a `price.changed` event). */
export interface RecordedPriceChange {
  approvalId: string | null;
  previousFen: number;
  priceFen: number;
}

/**
 * The service's own record of the price changes it made: the `price.changed` events (written in the transaction
 * that stored the slot's price). Recovery reads it before the platform (issue 27). Queries only.
 */
@Injectable()
export class PriceRecordRepository {
  constructor(private readonly tx: Tx) {}

  /** Whether the effect of this approval's execution was recorded (a `price.changed` event names it). */
  async approvalRecorded(location: string, approvalId: string): Promise<boolean> {
    const rows = (await this.tx.manager.query(
      `SELECT 1 FROM events WHERE kind = 'price.changed' AND source = 'service' AND location = $1 AND data->>'approval_id' = $2 LIMIT 1`,
      [location, approvalId],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Changes of `itemId` at `location` that were acknowledged and recorded after `since`, oldest first. */
  async changesSince(location: string, itemId: string, since: Date): Promise<RecordedPriceChange[]> {
    const rows = (await this.tx.manager.query(
      `SELECT e.data->>'approval_id' AS approval_id, (c->>'previous_fen')::bigint AS previous_fen, (c->>'price_fen')::bigint AS price_fen
         FROM events e CROSS JOIN LATERAL jsonb_array_elements(COALESCE(e.data->'changes', '[]'::jsonb)) c
        WHERE e.kind = 'price.changed' AND e.source = 'service' AND e.location = $1 AND e.occurred_at > $2 AND c->>'item' = $3
        ORDER BY e.seq`,
      [location, since, itemId],
    )) as { approval_id: string | null; previous_fen: string; price_fen: string }[];
    return rows.map((r) => ({ approvalId: r.approval_id, previousFen: Number(r.previous_fen), priceFen: Number(r.price_fen) }));
  }
}
