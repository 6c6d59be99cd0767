import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ScoreSums } from './scoring.rules';

/** One slot with its sales aggregates over the window (one row per slot: no sale is loaded into memory). */
export interface SlotAggregateRow {
  slotId: string;
  locationId: string;
  namespace: string;
  vendorSku: string;
  skuId: string;
  title: string;
  stock: number;
  capacity: number | null;
  priceFen: number;
  units: number;
  sumSquares: number;
  firstSaleDay: number | null;
  lastSaleDay: number | null;
  firstSnapshotDay: number | null;
  snapshotEmptyDays: number;
  snapshotEmptyDaysAfterLastSale: number;
}

export interface ForecastRow {
  slotId: string;
  locationId: string;
  ratePerDay: number;
  measured: boolean;
}

/** +08:00 calendar date of a timestamptz, in SQL. */
const DAY_OF = (col: string) => `((${col} + interval '8 hours') AT TIME ZONE 'UTC')::date`;

const n = (v: unknown): number => Number(v ?? 0);
const nn = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * Queries of demand, snapshots, forecasts, scoring and lead-time history. Aggregation happens in PostgreSQL:
 * sales are summed per slot per day and then per slot, so memory is proportional to slots, not to sales.
 */
@Injectable()
export class ForecastingRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Per slot: Σ units, Σ units² per +08:00 day, first/last sale day, first snapshot day and the empty zero-sale
   * days seen by snapshots, over the window [windowStartDay, windowStartDay + windowDays). Days are indexes from
   * windowStartDay. Only paid lines of settled orders count.
   */
  async slotAggregates(windowStartDay: string, windowDays: number, location?: string): Promise<SlotAggregateRow[]> {
    const params: unknown[] = [windowStartDay, windowDays];
    let locFilter = '';
    let slotFilter = '';
    if (location !== undefined) {
      params.push(location);
      locFilter = `AND o.location_id = $3`;
      slotFilter = `WHERE s.location_id = $3`;
    }
    const rows = (await this.ds.query(
      `WITH bounds AS (
         SELECT $1::date AS d0, ($1::date + $2::int) AS d1,
                ($1::date::timestamp AT TIME ZONE 'UTC') - interval '8 hours' AS t0,
                (($1::date + $2::int)::timestamp AT TIME ZONE 'UTC') - interval '8 hours' AS t1
       ),
       daily AS (
         SELECT l.slot_id, (${DAY_OF('o.taken_at')} - b.d0) AS d, SUM(l.quantity)::bigint AS units
         FROM sale_orders o CROSS JOIN bounds b
         JOIN sale_lines l ON l.order_id = o.id
         WHERE o.trade_status = 'settled' AND l.status = 'paid' AND o.taken_at >= b.t0 AND o.taken_at < b.t1 ${locFilter}
         GROUP BY l.slot_id, 2
       ),
       per_slot AS (
         SELECT slot_id, SUM(units) AS units, SUM(units * units) AS sumsq, MIN(d) AS first_d, MAX(d) AS last_d
         FROM daily GROUP BY slot_id
       ),
       snaps AS (
         SELECT sd.slot_id,
                MIN(sd.day - b.d0) AS first_snap,
                COUNT(*) FILTER (WHERE sd.min_stock <= 0 AND dl.slot_id IS NULL) AS empty_days,
                COUNT(*) FILTER (WHERE sd.min_stock <= 0 AND dl.slot_id IS NULL AND (ps.last_d IS NULL OR sd.day - b.d0 > ps.last_d)) AS empty_after
         FROM slot_stock_days sd CROSS JOIN bounds b
         LEFT JOIN daily dl ON dl.slot_id = sd.slot_id AND dl.d = sd.day - b.d0
         LEFT JOIN per_slot ps ON ps.slot_id = sd.slot_id
         WHERE sd.day >= b.d0 AND sd.day < b.d1
         GROUP BY sd.slot_id
       )
       SELECT s.id, s.location_id, s.namespace, s.vendor_sku, s.sku_id, s.title, s.stock, s.capacity, s.price_fen,
              ps.units, ps.sumsq, ps.first_d, ps.last_d, sn.first_snap, sn.empty_days, sn.empty_after
       FROM slots s
       LEFT JOIN per_slot ps ON ps.slot_id = s.id
       LEFT JOIN snaps sn ON sn.slot_id = s.id
       ${slotFilter}
       ORDER BY s.location_id, s.id`,
      params,
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      slotId: r.id as string,
      locationId: r.location_id as string,
      namespace: r.namespace as string,
      vendorSku: r.vendor_sku as string,
      skuId: r.sku_id as string,
      title: r.title as string,
      stock: n(r.stock),
      capacity: nn(r.capacity),
      priceFen: n(r.price_fen),
      units: n(r.units),
      sumSquares: n(r.sumsq),
      firstSaleDay: nn(r.first_d),
      lastSaleDay: nn(r.last_d),
      firstSnapshotDay: nn(r.first_snap),
      snapshotEmptyDays: n(r.empty_days),
      snapshotEmptyDaysAfterLastSale: n(r.empty_after),
    }));
  }

  /** Records the current stock of every slot (or one location's) as today's snapshot, keeping the day's lowest. */
  async recordSnapshot(location?: string, manager?: EntityManager): Promise<number> {
    const q = manager ?? this.ds;
    const rows = (await q.query(
      `INSERT INTO slot_stock_days (slot_id, day, min_stock)
       SELECT s.id, ${DAY_OF('now()')}, s.stock FROM slots s ${location !== undefined ? 'WHERE s.location_id = $1' : ''}
       ON CONFLICT (slot_id, day) DO UPDATE SET min_stock = LEAST(slot_stock_days.min_stock, EXCLUDED.min_stock), recorded_at = now()
       RETURNING slot_id`,
      location !== undefined ? [location] : [],
    )) as unknown[];
    return rows.length;
  }

  /** One forecast per slot per +08:00 day: the day's latest plan replaces earlier ones. One statement for all. */
  async recordForecasts(rows: ForecastRow[], madeAt: Date): Promise<void> {
    const chunk = 20_000;
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      await this.ds.query(
        `INSERT INTO replenishment_forecasts (slot_id, location_id, day, made_at, rate_per_day, measured)
         SELECT u.slot_id, u.location_id, ${DAY_OF('$5::timestamptz')}, $5::timestamptz, u.rate, u.measured
         FROM unnest($1::text[], $2::text[], $3::float8[], $4::bool[]) AS u(slot_id, location_id, rate, measured)
         ON CONFLICT (slot_id, day) DO UPDATE
           SET made_at = EXCLUDED.made_at, rate_per_day = EXCLUDED.rate_per_day, measured = EXCLUDED.measured, location_id = EXCLUDED.location_id`,
        [part.map((r) => r.slotId), part.map((r) => r.locationId), part.map((r) => r.ratePerDay), part.map((r) => r.measured), madeAt],
      );
    }
  }

  /** Forecast counts: all, and those whose horizon has not passed at `now`. */
  async forecastCounts(horizonDays: number, now: Date): Promise<{ total: number; pending: number }> {
    const rows = (await this.ds.query(
      `SELECT COUNT(*) AS total, COUNT(*) FILTER (WHERE made_at + make_interval(days => $1::int) > $2::timestamptz) AS pending
       FROM replenishment_forecasts`,
      [horizonDays, now],
    )) as { total: string; pending: string }[];
    return { total: n(rows[0]?.total), pending: n(rows[0]?.pending) };
  }

  /**
   * Score sums per location for forecasts whose horizon has passed: forecast = rate × h, actual = units sold in
   * [made_at, made_at + h), naive = units sold in [made_at − h, made_at).
   */
  async scoreSums(horizonDays: number, now: Date): Promise<(ScoreSums & { locationId: string })[]> {
    const rows = (await this.ds.query(
      `WITH due AS (
         SELECT f.slot_id, f.location_id, f.made_at, f.rate_per_day * $1::int AS fc
         FROM replenishment_forecasts f
         WHERE f.made_at + make_interval(days => $1::int) <= $2::timestamptz
       )
       SELECT due.location_id, COUNT(*) AS n, SUM(a.actual) AS actual, SUM(due.fc) AS forecast,
              SUM(ABS(a.actual - due.fc)) AS abs_err, SUM(ABS(a.actual - a.naive)) AS naive_err
       FROM due CROSS JOIN LATERAL (
         SELECT COALESCE(SUM(l.quantity) FILTER (WHERE o.taken_at >= due.made_at), 0) AS actual,
                COALESCE(SUM(l.quantity) FILTER (WHERE o.taken_at < due.made_at), 0) AS naive
         FROM sale_lines l JOIN sale_orders o ON o.id = l.order_id
         WHERE l.slot_id = due.slot_id AND l.status = 'paid' AND o.trade_status = 'settled'
           AND o.taken_at >= due.made_at - make_interval(days => $1::int)
           AND o.taken_at < due.made_at + make_interval(days => $1::int)
       ) a
       GROUP BY due.location_id
       ORDER BY due.location_id`,
      [horizonDays, now],
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      locationId: r.location_id as string,
      count: n(r.n),
      actual: n(r.actual),
      forecast: n(r.forecast),
      absError: n(r.abs_err),
      naiveAbsError: n(r.naive_err),
    }));
  }

  /** Completed deliveries of runs by one fulfiller, newest first. */
  async runLeadSamples(fulfiller: string, limit: number): Promise<{ startedAt: Date; finishedAt: Date }[]> {
    const rows = (await this.ds.query(
      `SELECT placed_at, delivered_at FROM replenishment_runs
       WHERE fulfiller = $1 AND delivered_at IS NOT NULL AND placed_at IS NOT NULL
       ORDER BY delivered_at DESC LIMIT $2`,
      [fulfiller, limit],
    )) as { placed_at: Date; delivered_at: Date }[];
    return rows.map((r) => ({ startedAt: new Date(r.placed_at), finishedAt: new Date(r.delivered_at) }));
  }

  /** Completed binding restock orders of one machine platform, newest first. */
  async restockLeadSamples(namespace: string, limit: number): Promise<{ startedAt: Date; finishedAt: Date }[]> {
    const rows = (await this.ds.query(
      `SELECT sent_at, completed_at FROM restock_orders
       WHERE namespace = $1 AND binding AND status = 'completed' AND completed_at IS NOT NULL AND sent_at IS NOT NULL
       ORDER BY completed_at DESC LIMIT $2`,
      [namespace, limit],
    )) as { sent_at: Date; completed_at: Date }[];
    return rows.map((r) => ({ startedAt: new Date(r.sent_at), finishedAt: new Date(r.completed_at) }));
  }
}
