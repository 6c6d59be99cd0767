import { Injectable } from '@nestjs/common';
import { StaleReads } from '../database/replicas/stale-reads';

export interface FleetRow {
  id: string;
  name: string;
  namespace: string;
  slots: number;
  sold_out: number;
  stock: number;
  stock_with_capacity: number;
  capacity: number;
  last_synced_at: Date | null;
  today_count: number;
  today_fen: number;
  week_count: number;
  week_fen: number;
}

/** One read over the roster, the synced slots and the settled sales: the console's Fleet screen in one query (a replica may answer, issue 38). */
@Injectable()
export class FleetRepository {
  constructor(private readonly stale: StaleReads) {}

  async overview(todayFrom: Date, weekFrom: Date): Promise<FleetRow[]> {
    const rows = (await this.stale.rows(
      `SELECT l.id, l.name, l.namespace,
              COALESCE(s.slots, 0)::int AS slots, COALESCE(s.sold_out, 0)::int AS sold_out,
              COALESCE(s.stock, 0)::bigint AS stock, COALESCE(s.stock_with_capacity, 0)::bigint AS stock_with_capacity,
              COALESCE(s.capacity, 0)::bigint AS capacity, s.last_synced_at,
              COALESCE(o.today_count, 0)::int AS today_count, COALESCE(o.today_fen, 0)::bigint AS today_fen,
              COALESCE(o.week_count, 0)::int AS week_count, COALESCE(o.week_fen, 0)::bigint AS week_fen
         FROM locations l
         LEFT JOIN (SELECT location_id, count(*) AS slots, count(*) FILTER (WHERE stock <= 0) AS sold_out,
                           sum(stock) AS stock, sum(stock) FILTER (WHERE capacity IS NOT NULL) AS stock_with_capacity,
                           sum(capacity) AS capacity, max(synced_at) AS last_synced_at
                      FROM slots GROUP BY location_id) s ON s.location_id = l.id
         LEFT JOIN (SELECT location_id, count(*) FILTER (WHERE taken_at >= $1) AS today_count,
                           sum(total_fen) FILTER (WHERE taken_at >= $1) AS today_fen,
                           count(*) AS week_count, sum(total_fen) AS week_fen
                      FROM sale_orders WHERE taken_at >= $2 AND trade_status = 'settled'
                     GROUP BY location_id) o ON o.location_id = l.id
        ORDER BY l.id`,
      [todayFrom, weekFrom],
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      id: String(r.id),
      name: String(r.name),
      namespace: String(r.namespace),
      slots: Number(r.slots),
      sold_out: Number(r.sold_out),
      stock: Number(r.stock),
      stock_with_capacity: Number(r.stock_with_capacity),
      capacity: Number(r.capacity),
      last_synced_at: r.last_synced_at ? new Date(r.last_synced_at as string) : null,
      today_count: Number(r.today_count),
      today_fen: Number(r.today_fen),
      week_count: Number(r.week_count),
      week_fen: Number(r.week_fen),
    }));
  }
}
