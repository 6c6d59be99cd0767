import { Injectable } from '@nestjs/common';
import { queryReturning } from '../database/returning';
import { Tx } from '../database/tx';
import { recordStockReadings } from '../forecasting/demand/stock-readings.sql';
import type { SlotRowOut } from './inventory.rules';

export type SlotRow = SlotRowOut;

const SLOT_COLUMNS =
  'id text, location_id text, namespace text, vendor_sku text, sku_id text, title text, barcode text, price_fen bigint, stock integer, ' +
  'capacity integer, partner_slot_id text';

/** Writes of the synced machine copy (`slots`). Reads for the catalog live in src/catalog. */
@Injectable()
export class SlotsRepository {
  constructor(private readonly tx: Tx) {}

  /**
   * Upserts one machine's slots in one statement. Price, stock, title are replaced; barcode, capacity and the
   * partner's slot label are replaced when given and kept otherwise; `price_locked` is never touched.
   * When `removeOthersExcept` is given, slots of that location not in `rows` and not in that list are deleted
   * (the product left the machine), except those whose price change awaits approval. Nothing is written for a
   * location that is no longer registered. The stock read is recorded as the slots' reading of the day of `readAt`
   * (the service clock), in the same transaction: a day the sync saw a slot at 0 is a stocked-out day for the demand.
   */
  async replaceForLocation(
    locationId: string,
    rows: SlotRow[],
    opts: { removeOthersExcept: string[] | null; readAt: Date },
  ): Promise<{ upserted: number; removed: number }> {
    return this.tx.run(async () => {
      const m = this.tx.manager;
      // A machine removed from the roster while its read was in flight gets no telemetry back.
      const registered = (await m.query(`SELECT 1 FROM locations WHERE id = $1 FOR SHARE`, [locationId])) as unknown[];
      if (registered.length === 0) return { upserted: 0, removed: 0 };
      if (rows.length) {
        await m.query(
          `INSERT INTO slots AS s (id, location_id, namespace, vendor_sku, sku_id, title, barcode, price_fen, stock, capacity, partner_slot_id, synced_at)
           SELECT id, location_id, namespace, vendor_sku, sku_id, title, barcode, price_fen, stock, capacity, partner_slot_id, now()
           FROM jsonb_to_recordset($1::jsonb) AS r(${SLOT_COLUMNS}) ORDER BY id
           ON CONFLICT (id) DO UPDATE SET
             location_id = EXCLUDED.location_id, namespace = EXCLUDED.namespace, vendor_sku = EXCLUDED.vendor_sku,
             sku_id = EXCLUDED.sku_id, title = EXCLUDED.title, barcode = COALESCE(EXCLUDED.barcode, s.barcode),
             price_fen = EXCLUDED.price_fen, stock = EXCLUDED.stock, capacity = COALESCE(EXCLUDED.capacity, s.capacity),
             partner_slot_id = COALESCE(EXCLUDED.partner_slot_id, s.partner_slot_id), synced_at = now()`,
          [JSON.stringify(rows)],
        );
        await recordStockReadings(m, rows.map((r) => ({ slotId: r.id, stock: r.stock })), opts.readAt);
      }
      let removed = 0;
      if (opts.removeOthersExcept) {
        const keep = [...rows.map((r) => r.id), ...opts.removeOthersExcept];
        const gone = await queryReturning(m, `DELETE FROM slots WHERE location_id = $1 AND NOT (id = ANY($2::text[])) AND price_locked = false RETURNING id`, [
          locationId,
          keep,
        ]);
        removed = gone.length;
      }
      return { upserted: rows.length, removed };
    });
  }

  /** Removes every slot of a location (roster removal); returns how many. */
  async deleteForLocation(locationId: string): Promise<number> {
    return (await queryReturning(this.tx.manager, `DELETE FROM slots WHERE location_id = $1 RETURNING id`, [locationId])).length;
  }
}
