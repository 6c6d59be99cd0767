import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../database/tx';
import { StaleReads } from '../database/replicas/stale-reads';
import { DataWarning, SaleLineRow, SaleOrderRow } from './sale-order.rules';

export interface UpsertedSale {
  id: string;
  locationId: string;
  totalFen: number;
  tradeStatus: string | null;
  inserted: boolean;
  previousStatus: string | null;
}

export interface SaleQuery {
  locationId?: string;
  tradeStatus: string | null;
  takenFrom?: Date;
  takenTo?: Date;
  updatedFrom?: Date;
  updatedTo?: Date;
  sortBy: 'taken' | 'updated';
  after?: { t: string; id: string };
  limit: number;
}

/**
 * A stored sale order with its lines and its machine's name, as both reads answer it (a list page and one order): the
 * query's own row, not mapped (issue 13: no object per row in between). Timestamps are the driver's text on a page
 * read from the pool, Dates otherwise; bigint amounts are text or numbers.
 */
export interface StoredSale {
  id: string;
  location_id: string;
  location_name: string | null;
  total_fen: string | number;
  taken_at: string | Date;
  settled_at: string | Date | null;
  updated_at: string | Date | null;
  finalized: boolean | null;
  trade_status: string | null;
  trade_status_raw: string | null;
  trade_status_label: string | null;
  data_warnings: DataWarning[] | null;
  /** The sort key as exact UTC text with microseconds (for the cursor); empty on a read by id. */
  sort_key: string;
  lines: StoredSaleLine[] | null;
}

export interface StoredSaleLine {
  line_no: number;
  vendor_sku: string;
  sku_id: string;
  title: string | null;
  quantity: number;
  price_fen: string | number;
  status: string;
}

const ORDER_COLUMNS =
  'id text, namespace text, location_id text, total_fen bigint, taken_at timestamptz, has_taken_at boolean, settled_at timestamptz, ' +
  'updated_at timestamptz, finalized boolean, trade_status text, trade_status_raw text, trade_status_label text, data_warnings jsonb';
const LINE_COLUMNS =
  'order_id text, line_no integer, vendor_sku text, sku_id text, slot_id text, title text, quantity integer, price_fen bigint, status text, cost_fen bigint';

/** The synced sales ledger: batch upserts (one statement per page) and keyset reads. No business rules here. */
@Injectable()
export class SalesRepository {
  constructor(
    private readonly ds: DataSource,
    private readonly tx: Tx,
    private readonly stale: StaleReads,
  ) {}

  /**
   * Upserts a batch of orders and replaces the lines of the orders it wrote, in the current transaction (Tx).
   * A stored revision is replaced only by a newer one (or when either side has no updatedAt); an equal or older
   * revision leaves the row untouched (idempotent re-reads). Rows are locked in id order to avoid deadlocks.
   */
  async upsertBatch(orders: SaleOrderRow[], lines: SaleLineRow[]): Promise<UpsertedSale[]> {
    if (orders.length === 0) return [];
    const m = this.tx.manager;
    const sorted = [...orders].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const rows = (await m.query(
      `WITH input AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(${ORDER_COLUMNS})),
       prev AS (SELECT s.id, s.trade_status FROM sale_orders s WHERE s.id IN (SELECT id FROM input)),
       up AS (
         INSERT INTO sale_orders AS s (id, namespace, location_id, total_fen, taken_at, has_taken_at, settled_at, updated_at, finalized,
                                  trade_status, trade_status_raw, trade_status_label, data_warnings, ingested_at)
         SELECT id, namespace, location_id, total_fen, taken_at, has_taken_at, settled_at, updated_at, finalized,
                trade_status, trade_status_raw, trade_status_label, data_warnings, now()
         FROM input ORDER BY id
         ON CONFLICT (id) DO UPDATE SET
           namespace = EXCLUDED.namespace, location_id = EXCLUDED.location_id, total_fen = EXCLUDED.total_fen,
           taken_at = EXCLUDED.taken_at, has_taken_at = EXCLUDED.has_taken_at, settled_at = EXCLUDED.settled_at,
           updated_at = EXCLUDED.updated_at, finalized = EXCLUDED.finalized, trade_status = EXCLUDED.trade_status,
           trade_status_raw = EXCLUDED.trade_status_raw, trade_status_label = EXCLUDED.trade_status_label,
           data_warnings = EXCLUDED.data_warnings, ingested_at = now()
         WHERE s.updated_at IS NULL OR EXCLUDED.updated_at IS NULL OR EXCLUDED.updated_at > s.updated_at
         RETURNING s.id, s.location_id, s.total_fen, s.trade_status, (xmax = 0) AS inserted
       )
       SELECT up.id, up.location_id, up.total_fen, up.trade_status, up.inserted, prev.trade_status AS previous_status
       FROM up LEFT JOIN prev ON prev.id = up.id`,
      [JSON.stringify(sorted)],
    )) as { id: string; location_id: string; total_fen: string; trade_status: string | null; inserted: boolean; previous_status: string | null }[];
    if (rows.length === 0) return [];
    const written = new Set(rows.map((r) => r.id));
    const ids = [...written];
    await m.query(`DELETE FROM sale_lines WHERE order_id = ANY($1::text[])`, [ids]);
    const keep = lines.filter((l) => written.has(l.order_id));
    if (keep.length) {
      await m.query(
        `INSERT INTO sale_lines (order_id, line_no, vendor_sku, sku_id, slot_id, title, quantity, price_fen, status, cost_fen)
         SELECT order_id, line_no, vendor_sku, sku_id, slot_id, title, quantity, price_fen, status, cost_fen
         FROM jsonb_to_recordset($1::jsonb) AS r(${LINE_COLUMNS})`,
        [JSON.stringify(keep)],
      );
    }
    return rows.map((r) => ({
      id: r.id,
      locationId: r.location_id,
      totalFen: Number(r.total_fen),
      tradeStatus: r.trade_status,
      inserted: r.inserted,
      previousStatus: r.previous_status,
    }));
  }

  /**
   * One keyset page (ask for limit + 1 rows to know whether a next page exists), in one round trip: the orders,
   * their lines (as JSON) and their machine names (timestamps as driver text).
   * May be a little stale (issue 38): a replica serves it when one has the client's writes.
   */
  list(q: SaleQuery): Promise<StoredSale[]> {
    const { sql, params } = this.pageQuery(q);
    return this.stale.rows<StoredSale>(sql, params, { textTimes: true });
  }

  /** The query plan of a page query (the bench shows the index in use). */
  async explain(q: SaleQuery, analyze = false): Promise<string> {
    const { sql, params } = this.pageQuery(q);
    const rows = (await this.tx.manager.query(`EXPLAIN ${analyze ? '(ANALYZE, BUFFERS) ' : ''}${sql}`, params)) as { 'QUERY PLAN': string }[];
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }

  private pageQuery(q: SaleQuery): { sql: string; params: unknown[] } {
    const inner = this.listQuery(q);
    const order = q.sortBy === 'taken' ? 'p.taken_at DESC, p.id DESC' : 'p.updated_at ASC, p.id ASC';
    return { sql: withLinesAndName(inner.sql, `ORDER BY ${order}`), params: inner.params };
  }

  private listQuery(q: SaleQuery): { sql: string; params: unknown[] } {
    const where: string[] = [];
    const params: unknown[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    if (q.locationId !== undefined) where.push(`location_id = ${p(q.locationId)}`);
    if (q.tradeStatus !== null) where.push(`trade_status = ${p(q.tradeStatus)}`);
    if (q.takenFrom) where.push(`taken_at >= ${p(q.takenFrom.toISOString())}`);
    if (q.takenTo) where.push(`taken_at < ${p(q.takenTo.toISOString())}`);
    if (q.updatedFrom) where.push(`updated_at >= ${p(q.updatedFrom.toISOString())}`);
    if (q.updatedTo) where.push(`updated_at < ${p(q.updatedTo.toISOString())}`);
    const col = q.sortBy === 'taken' ? 'taken_at' : 'updated_at';
    if (q.sortBy === 'updated') where.push('updated_at IS NOT NULL');
    // Newest first by take time; oldest change first by update time (see orders.rules).
    const dir = q.sortBy === 'taken' ? 'DESC' : 'ASC';
    if (q.after) where.push(`(${col}, id) ${dir === 'DESC' ? '<' : '>'} (${p(q.after.t)}::timestamptz, ${p(q.after.id)})`);
    const sql =
      `SELECT id, namespace, location_id, total_fen, taken_at, settled_at, updated_at, finalized, trade_status, trade_status_raw,
              trade_status_label, data_warnings,
              to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key
       FROM sale_orders` +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
      ` ORDER BY ${col} ${dir}, id ${dir} LIMIT ${p(q.limit)}`;
    return { sql, params };
  }

  /** One sale order by ledger number, with its lines and its machine's name (the shape of a page row); null when none. */
  async find(id: string): Promise<StoredSale | null> {
    const sql = withLinesAndName(
      `SELECT id, namespace, location_id, total_fen, taken_at, settled_at, updated_at, finalized, trade_status, trade_status_raw,
              trade_status_label, data_warnings, '' AS sort_key
       FROM sale_orders WHERE id = $1`,
      '',
    );
    const rows = (await this.tx.manager.query(sql, [id])) as StoredSale[];
    return rows.length ? rows[0] : null;
  }
}

/** The orders an inner query selects (as `p`), with their lines as JSON and their machine's name. */
function withLinesAndName(inner: string, orderBy: string): string {
  return `WITH p AS MATERIALIZED (${inner})
      SELECT p.*, loc.name AS location_name,
             (SELECT json_agg(json_build_object('line_no', l.line_no, 'vendor_sku', l.vendor_sku, 'sku_id', l.sku_id, 'title', l.title,
                                                'quantity', l.quantity, 'price_fen', l.price_fen, 'status', l.status) ORDER BY l.line_no)
              FROM sale_lines l WHERE l.order_id = p.id) AS lines
      FROM p LEFT JOIN locations loc ON loc.id = p.location_id
      ${orderBy}`;
}
