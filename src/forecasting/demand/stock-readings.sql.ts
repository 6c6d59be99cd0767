import { DAY_OF } from './demand.repository';

/** What a repository's manager offers (the transaction's, through `Tx`). */
interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

export interface StockReading {
  slotId: string;
  stock: number;
}

/**
 * The one write of `slot_stock_days` for readings the caller holds (an inventory sync, a delivery, a depot fill):
 * each slot's lowest stock of the +08:00 day of `at`, the SERVICE clock's time of the reading (a replay's days are
 * the adjustable clock's). A row is rewritten only when the stock is lower than recorded. One statement, run on the
 * caller's manager so the reading commits with the stock it read.
 */
export async function recordStockReadings(m: Queryable, readings: readonly StockReading[], at: Date): Promise<void> {
  if (readings.length === 0) return;
  const lowest = new Map<string, number>();
  for (const r of readings) lowest.set(r.slotId, Math.min(r.stock, lowest.get(r.slotId) ?? r.stock));
  await m.query(
    `INSERT INTO slot_stock_days (slot_id, day, min_stock)
     SELECT u.slot_id, ${DAY_OF('$3::timestamptz')}, u.stock FROM unnest($1::text[], $2::int[]) AS u(slot_id, stock)
     ORDER BY u.slot_id
     ON CONFLICT (slot_id, day) DO UPDATE SET min_stock = EXCLUDED.min_stock, recorded_at = now()
     WHERE EXCLUDED.min_stock < slot_stock_days.min_stock`,
    [[...lowest.keys()], [...lowest.values()], at],
  );
}
