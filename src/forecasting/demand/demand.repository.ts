import { Injectable, Logger } from '@nestjs/common';
import { Tx } from '../../database/tx';

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
  snapshotEmptyUnits: number;
  snapshotEmptySumSquares: number;
  firstSnapshotEmpty: boolean;
  machineFirstSaleDay: number | null;
  machineFirstSnapshotDay: number | null;
}

/** +08:00 calendar date of a timestamptz, in SQL. */
export const DAY_OF = (col: string) => `((${col} + interval '8 hours') AT TIME ZONE 'UTC')::date`;

/**
 * A sync transaction that started before the aggregate's snapshot but committed after it carries an `ingested_at`
 * earlier than the aggregate: changes are looked for from this long before the computation, so none is missed.
 */
const CHANGE_MARGIN = `interval '15 minutes'`;
const CACHE_LOCK = 727_100_600;

const n = (v: unknown): number => Number(v ?? 0);
const nn = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * Demand aggregates per slot over a window of complete +08:00 days, computed in PostgreSQL: sales are summed per
 * slot per day and then per slot (Σx, Σx², first and last sale day), with the stock snapshots of the window
 * (first seen, empty days and what sold on them, empty days after the last sale) and the machine's first sale and
 * first snapshot days. Memory is one row per slot.
 * The whole-fleet aggregate is cached per window and recomputed only when a sale of the window was (re)ingested or
 * a snapshot of the window recorded since; a one-location plan is computed live (it is small).
 */
@Injectable()
export class DemandRepository {
  private readonly logger = new Logger(DemandRepository.name);
  constructor(private readonly tx: Tx) {}

  async slotAggregates(windowStartDay: string, windowDays: number, location?: string): Promise<SlotAggregateRow[]> {
    if (location !== undefined) return this.live(windowStartDay, windowDays, location);
    if (!(await this.cacheValid(windowStartDay, windowDays))) await this.rebuild(windowStartDay, windowDays);
    const rows = (await this.tx.manager.query(
      `SELECT s.id, s.location_id, s.namespace, s.vendor_sku, s.sku_id, s.title, s.stock, s.capacity, s.price_fen,
              c.units, c.sumsq, c.first_d, c.last_d, c.first_snap, c.empty_days, c.empty_after,
              c.empty_units, c.empty_sumsq, c.first_snap_empty, c.machine_first_d, c.machine_first_snap
       FROM slots s LEFT JOIN demand_cache c ON c.window_start = $1::date AND c.slot_id = s.id
       ORDER BY s.location_id, s.id`,
      [windowStartDay],
    )) as Record<string, unknown>[];
    return rows.map(toRow);
  }

  private async live(windowStartDay: string, windowDays: number, location: string): Promise<SlotAggregateRow[]> {
    const sql = `SELECT s.id, s.location_id, s.namespace, s.vendor_sku, s.sku_id, s.title, s.stock, s.capacity, s.price_fen,
              a.units, a.sumsq, a.first_d, a.last_d, a.first_snap, a.empty_days, a.empty_after,
              a.empty_units, a.empty_sumsq, a.first_snap_empty, a.machine_first_d, a.machine_first_snap
       FROM slots s LEFT JOIN (${aggregateSql(true)}) a ON a.slot_id = s.id
       WHERE s.location_id = $3
       ORDER BY s.location_id, s.id`;
    const rows = (await this.tx.manager.query(sql, [windowStartDay, windowDays, location])) as Record<string, unknown>[];
    return rows.map(toRow);
  }

  private async cacheValid(windowStartDay: string, windowDays: number): Promise<boolean> {
    const rows = (await this.tx.manager.query(
      `SELECT r.valid_from,
              EXISTS (SELECT 1 FROM sale_orders o
                      WHERE o.ingested_at > r.valid_from
                        AND o.taken_at >= (($1::date)::timestamp AT TIME ZONE 'UTC') - interval '8 hours'
                        AND o.taken_at < (($1::date + $2::int)::timestamp AT TIME ZONE 'UTC') - interval '8 hours') AS sales_changed,
              EXISTS (SELECT 1 FROM slot_stock_days sd
                      WHERE sd.recorded_at > r.valid_from AND sd.day >= $1::date AND sd.day < $1::date + $2::int) AS snapshots_changed
       FROM demand_cache_runs r WHERE r.window_start = $1::date AND r.window_days = $2::int`,
      [windowStartDay, windowDays],
    )) as { sales_changed: boolean; snapshots_changed: boolean }[];
    return rows.length > 0 && !rows[0].sales_changed && !rows[0].snapshots_changed;
  }

  /** Recomputes the window's aggregates for every slot in one statement, once at a time across instances. */
  private async rebuild(windowStartDay: string, windowDays: number): Promise<void> {
    await this.tx.run(async () => {
      const m = this.tx.manager;
      await m.query('SELECT pg_advisory_xact_lock($1)', [CACHE_LOCK]);
      if (await this.cacheValid(windowStartDay, windowDays)) return; // another instance just rebuilt it
      await m.query(`SET LOCAL work_mem = '64MB'`);
      const [{ valid_from }] = (await m.query(`SELECT now() - ${CHANGE_MARGIN} AS valid_from`)) as { valid_from: Date }[];
      await m.query(`DELETE FROM demand_cache`);
      await m.query(`DELETE FROM demand_cache_runs`);
      const inserted = (await m.query(
        `INSERT INTO demand_cache (window_start, slot_id, units, sumsq, first_d, last_d, first_snap, empty_days, empty_after,
                                   empty_units, empty_sumsq, first_snap_empty, machine_first_d, machine_first_snap)
         SELECT $1::date, a.slot_id, COALESCE(a.units, 0), COALESCE(a.sumsq, 0), a.first_d, a.last_d, a.first_snap, a.empty_days, a.empty_after,
                a.empty_units, a.empty_sumsq, a.first_snap_empty, a.machine_first_d, a.machine_first_snap
         FROM (${aggregateSql(false)}) a
         RETURNING 1`,
        [windowStartDay, windowDays],
      )) as unknown[];
      await m.query(`INSERT INTO demand_cache_runs (window_start, window_days, valid_from, slots) VALUES ($1::date, $2::int, $3, $4)`, [
        windowStartDay,
        windowDays,
        valid_from,
        inserted.length,
      ]);
      this.logger.debug(`demand cache for window ${windowStartDay} (+${windowDays} days) rebuilt: ${inserted.length} slots`);
    });
  }
}

/**
 * The per-slot aggregate over [$1, $1 + $2 days). With `oneLocation`, sales and snapshots are limited to the slots
 * of location $3. Stocked-out evidence: days whose lowest recorded stock was 0 (`empty_days`, with the units and
 * squares sold on them), those after the last sale day (`empty_after`), and whether the first reading saw 0. The
 * machine's first sale and first reading days tell how far back its backfilled ledger shows the slot could sell.
 */
function aggregateSql(oneLocation: boolean): string {
  const t0 = `(($1::date)::timestamp AT TIME ZONE 'UTC') - interval '8 hours'`;
  const t1 = `(($1::date + $2::int)::timestamp AT TIME ZONE 'UTC') - interval '8 hours'`;
  const salesLoc = oneLocation ? 'AND o.location_id = $3' : '';
  const snapLoc = oneLocation ? 'AND sd.slot_id IN (SELECT id FROM slots WHERE location_id = $3)' : '';
  return `WITH daily AS (
         SELECT l.slot_id, o.location_id, (${DAY_OF('o.taken_at')} - $1::date) AS d, SUM(l.quantity)::bigint AS units
         FROM sale_orders o JOIN sale_lines l ON l.order_id = o.id
         WHERE o.trade_status = 'settled' AND l.status = 'paid' AND o.taken_at >= ${t0} AND o.taken_at < ${t1} ${salesLoc}
         GROUP BY l.slot_id, o.location_id, 3
       ),
       snap AS (
         SELECT sd.slot_id, sd.day - $1::date AS d, sd.min_stock FROM slot_stock_days sd
         WHERE sd.day >= $1::date AND sd.day < $1::date + $2::int ${snapLoc}
       ),
       per_slot AS (
         SELECT dl.slot_id, MIN(dl.location_id) AS location_id, SUM(dl.units) AS units, SUM(dl.units * dl.units) AS sumsq,
                MIN(dl.d) AS first_d, MAX(dl.d) AS last_d,
                COALESCE(SUM(dl.units) FILTER (WHERE z.min_stock <= 0), 0) AS empty_units,
                COALESCE(SUM(dl.units * dl.units) FILTER (WHERE z.min_stock <= 0), 0) AS empty_sumsq
         FROM daily dl LEFT JOIN snap z ON z.slot_id = dl.slot_id AND z.d = dl.d
         GROUP BY dl.slot_id
       ),
       snaps AS (
         SELECT sn.slot_id, MIN(sn.d) AS first_snap, COUNT(*) FILTER (WHERE sn.min_stock <= 0) AS zero_days,
                (array_agg(sn.min_stock ORDER BY sn.d))[1] <= 0 AS first_empty
         FROM snap sn GROUP BY sn.slot_id
       ),
       zero_after AS (
         SELECT z.slot_id, COUNT(*) AS n FROM snap z LEFT JOIN per_slot ps ON ps.slot_id = z.slot_id
         WHERE z.min_stock <= 0 AND (ps.last_d IS NULL OR z.d > ps.last_d)
         GROUP BY z.slot_id
       ),
       machine_sales AS (SELECT location_id, MIN(d) AS first_d FROM daily GROUP BY location_id),
       machine_snaps AS (SELECT s.location_id, MIN(sn.d) AS first_snap FROM snap sn JOIN slots s ON s.id = sn.slot_id GROUP BY s.location_id),
       joined AS (
         SELECT COALESCE(ps.slot_id, sn.slot_id) AS slot_id, COALESCE(ps.location_id, sl.location_id) AS location_id,
                ps.units, ps.sumsq, ps.first_d, ps.last_d, sn.first_snap, sn.zero_days, sn.first_empty, ps.empty_units, ps.empty_sumsq
         FROM per_slot ps
         FULL JOIN snaps sn ON sn.slot_id = ps.slot_id
         LEFT JOIN slots sl ON sl.id = COALESCE(ps.slot_id, sn.slot_id)
       )
       SELECT j.slot_id, j.units, j.sumsq, j.first_d, j.last_d, j.first_snap,
              COALESCE(j.zero_days, 0)::int AS empty_days, COALESCE(za.n, 0)::int AS empty_after,
              COALESCE(j.empty_units, 0)::bigint AS empty_units, COALESCE(j.empty_sumsq, 0)::bigint AS empty_sumsq,
              COALESCE(j.first_empty, false) AS first_snap_empty, ms.first_d::int AS machine_first_d, mn.first_snap::int AS machine_first_snap
       FROM joined j
       LEFT JOIN zero_after za ON za.slot_id = j.slot_id
       LEFT JOIN machine_sales ms ON ms.location_id = j.location_id
       LEFT JOIN machine_snaps mn ON mn.location_id = j.location_id`;
}

function toRow(r: Record<string, unknown>): SlotAggregateRow {
  return {
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
    snapshotEmptyUnits: n(r.empty_units),
    snapshotEmptySumSquares: n(r.empty_sumsq),
    firstSnapshotEmpty: r.first_snap_empty === true,
    machineFirstSaleDay: nn(r.machine_first_d),
    machineFirstSnapshotDay: nn(r.machine_first_snap),
  };
}
