import { Injectable } from '@nestjs/common';
import { StaleReads } from '../database/replicas/stale-reads';

/** Settled sales summed per +08:00 day in the database (no client adds orders up). Queries only; a replica may answer (issue 38). */
@Injectable()
export class SalesSummaryRepository {
  constructor(private readonly stale: StaleReads) {}

  async daily(from: Date, to: Date, location?: string): Promise<{ day: string; orders: number; fen: number }[]> {
    const rows = (await this.stale.rows(
      `SELECT to_char((taken_at AT TIME ZONE 'UTC') + interval '8 hours', 'YYYY-MM-DD') AS day, count(*)::int AS orders, COALESCE(sum(total_fen), 0)::bigint AS fen
         FROM sale_orders
        WHERE trade_status = 'settled' AND taken_at >= $1 AND taken_at < $2 AND ($3::text IS NULL OR location_id = $3::text)
        GROUP BY 1 ORDER BY 1`,
      [from, to, location ?? null],
    )) as { day: string; orders: number; fen: string }[];
    return rows.map((r) => ({ day: r.day, orders: Number(r.orders), fen: Number(r.fen) }));
  }
}
