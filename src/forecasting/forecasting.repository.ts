import { Injectable } from '@nestjs/common';
import { StaleReads } from '../database/replicas/stale-reads';
import { Tx } from '../database/tx';
import { DAY_OF } from './demand/demand.repository';
import { ScoreSums } from './scoring.rules';

export interface ForecastRow {
  slotId: string;
  locationId: string;
  ratePerDay: number;
  measured: boolean;
}

const n = (v: unknown): number => Number(v ?? 0);

/** Queries of snapshots, forecasts, scoring and lead-time history (demand aggregates: DemandRepository). */
@Injectable()
export class ForecastingRepository {
  constructor(
    private readonly tx: Tx,
    private readonly stale: StaleReads,
  ) {}

  /**
   * Records the current stock of every slot (or one location's) as today's snapshot, keeping the day's lowest.
   * A row is rewritten only when the stock is lower than recorded, so repeated plans in a day write little.
   * `at`: the service clock's now (its +08:00 day is the snapshot's day); the database's now() when absent.
   */
  async recordSnapshot(location?: string, at?: Date): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO slot_stock_days (slot_id, day, min_stock)
       SELECT s.id, ${DAY_OF('COALESCE($1::timestamptz, now())')}, s.stock FROM slots s ${location !== undefined ? 'WHERE s.location_id = $2' : ''}
       ON CONFLICT (slot_id, day) DO UPDATE SET min_stock = EXCLUDED.min_stock, recorded_at = now()
       WHERE EXCLUDED.min_stock < slot_stock_days.min_stock`,
      location !== undefined ? [at ?? null, location] : [at ?? null],
    );
  }

  /**
   * One forecast per slot per +08:00 day: a later plan that day replaces it when its rate differs (an unchanged
   * forecast keeps its first time). One statement per 20,000 slots.
   */
  async recordForecasts(rows: ForecastRow[], madeAt: Date): Promise<void> {
    const chunk = 20_000;
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      await this.tx.manager.query(
        `INSERT INTO replenishment_forecasts (slot_id, location_id, day, made_at, rate_per_day, measured)
         SELECT u.slot_id, u.location_id, ${DAY_OF('$5::timestamptz')}, $5::timestamptz, u.rate, u.measured
         FROM unnest($1::text[], $2::text[], $3::float8[], $4::bool[]) AS u(slot_id, location_id, rate, measured)
         ON CONFLICT (slot_id, day) DO UPDATE
           SET made_at = EXCLUDED.made_at, rate_per_day = EXCLUDED.rate_per_day, measured = EXCLUDED.measured, location_id = EXCLUDED.location_id
           WHERE replenishment_forecasts.rate_per_day IS DISTINCT FROM EXCLUDED.rate_per_day
              OR replenishment_forecasts.measured IS DISTINCT FROM EXCLUDED.measured`,
        [part.map((r) => r.slotId), part.map((r) => r.locationId), part.map((r) => r.ratePerDay), part.map((r) => r.measured), madeAt],
      );
    }
  }

  /** Forecast counts: all, and those whose horizon has not passed at `now`. */
  async forecastCounts(horizonDays: number, now: Date): Promise<{ total: number; pending: number }> {
    const rows = (await this.tx.manager.query(
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
    const rows = (await this.tx.manager.query(
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

  /**
   * Deliveries of runs by one fulfiller, newest first: one sample per received or arrived line of the newest `limit`
   * runs with such a line, delivered or still placed (placed → the line's `received_at`: a fleet-wide run teaches as
   * soon as its first line arrives), or one per run (placed → delivered) for runs received before lines carried their
   * time. Lines closed without a delivery are no sample.
   */
  async runLeadSamples(fulfiller: string, limit: number): Promise<{ startedAt: Date; finishedAt: Date }[]> {
    return this.lineLeadSamples(`fulfiller = $1`, [fulfiller], limit);
  }

  /**
   * Completed deliveries of runs of `runKinds` (the caller's: forecasting knows no fulfiller kinds) that ordered from
   * this supplier (the run's `fulfiller` lists its suppliers, comma-separated), placed → each received line that was
   * ordered from it, newest first: a run buys from several suppliers, and one supplier's slow delivery is not
   * another's lead time.
   */
  async supplierLineLeadSamples(runKinds: readonly string[], supplier: string, limit: number): Promise<{ startedAt: Date; finishedAt: Date }[]> {
    return this.lineLeadSamples(`fulfiller_kind = ANY($1::text[]) AND $2 = ANY(string_to_array(fulfiller, ','))`, [[...runKinds], supplier], limit, '$2');
  }

  /** `lineSupplier`: the parameter naming the supplier a received line must have been ordered from (`supply.ordered_from`). */
  private async lineLeadSamples(where: string, params: (string | string[])[], limit: number, lineSupplier?: string): Promise<{ startedAt: Date; finishedAt: Date }[]> {
    // A plan input that may be a little stale (issue 38): delivery history, which a replica may answer.
    const orderedFrom = lineSupplier
      ? `AND EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(r.lines, '[]'::jsonb)) l
                     WHERE l->>'slot_id' = e->>'slot_id' AND COALESCE(l->'supply'->>'ordered_from', ${lineSupplier}) = ${lineSupplier})`
      : '';
    const rows = (await this.stale.rows(
      `WITH r AS (
         SELECT placed_at, delivered_at, delivered, lines FROM replenishment_runs
         WHERE ${where} AND placed_at IS NOT NULL
           AND (delivered_at IS NOT NULL OR EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(delivered, '[]'::jsonb)) x WHERE x->>'received_at' IS NOT NULL))
         ORDER BY COALESCE(delivered_at, placed_at) DESC LIMIT $${params.length + 1}
       ), timed AS (
         SELECT r.placed_at, (e->>'received_at')::timestamptz AS finished_at
         FROM r CROSS JOIN LATERAL jsonb_array_elements(COALESCE(r.delivered, '[]'::jsonb)) e
         WHERE e->>'received_at' IS NOT NULL ${orderedFrom}
       )
       SELECT placed_at, finished_at FROM timed
       UNION ALL
       SELECT r.placed_at, r.delivered_at FROM r
       WHERE r.delivered_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(r.delivered, '[]'::jsonb)) e WHERE e->>'received_at' IS NOT NULL)
       ORDER BY finished_at DESC`,
      [...params, limit],
    )) as { placed_at: Date; finished_at: Date }[];
    return rows.map((r) => ({ startedAt: new Date(r.placed_at), finishedAt: new Date(r.finished_at) }));
  }

  /** Completed binding restock orders of one machine platform, newest first. */
  async restockLeadSamples(namespace: string, limit: number): Promise<{ startedAt: Date; finishedAt: Date }[]> {
    const rows = (await this.stale.rows(
      `SELECT sent_at, completed_at FROM restock_orders
       WHERE namespace = $1 AND binding AND status = 'completed' AND completed_at IS NOT NULL AND sent_at IS NOT NULL
       ORDER BY completed_at DESC LIMIT $2`,
      [namespace, limit],
    )) as { sent_at: Date; completed_at: Date }[];
    return rows.map((r) => ({ startedAt: new Date(r.sent_at), finishedAt: new Date(r.completed_at) }));
  }
}
