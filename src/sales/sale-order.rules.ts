import type { LedgerRecord } from '../partners/adapter.types';
import type { NoteCode } from '../common/errors/message-codes';
/**
 * Sale orders (spec "Orders (purchase and sale)", "Sale order trade_status", the contract (docs/contract/)).
 * Pure functions: how a ledger record becomes the stored sale order, how its line statuses map, how the trade status
 * is derived (the orders edge renders it: orders/api/sale-order.view.ts). No Nest or TypeORM import.
 */

export const TRADE_STATES = ['in_progress', 'pending_review', 'settled', 'payment_failed', 'refunded', 'cancelled'] as const;
export type TradeStatus = (typeof TRADE_STATES)[number];

export function isTradeStatus(v: unknown): v is TradeStatus {
  return typeof v === 'string' && (TRADE_STATES as readonly string[]).includes(v);
}

export type LineStatus = 'fulfilled' | 'processing' | 'removed';
export type AdjustmentType = 'refund' | 'refund_failed' | 'cancellation';

/** How a line status word shows: its line status, its adjustment, and whether the word is in the table. */
export type LineMapping = Readonly<{ status: LineStatus; adjustment: AdjustmentType | null; known: boolean }>;

/** The spec's line status mapping table. */
const LINE_STATUS_MAP: Readonly<Record<string, LineMapping>> = {
  paid: { status: 'fulfilled', adjustment: null, known: true },
  unpaid: { status: 'processing', adjustment: null, known: true },
  refunded: { status: 'removed', adjustment: 'refund', known: true },
  refund_failed: { status: 'fulfilled', adjustment: 'refund_failed', known: true },
  cancelled: { status: 'removed', adjustment: 'cancellation', known: true },
};
const UNKNOWN_LINE: LineMapping = { status: 'processing', adjustment: null, known: false };

/**
 * Maps an adapter line status word. A word outside the table is not guessed: the line is shown as `processing`
 * (nothing final is known about it) and `known` is false so the caller marks the order with a warning. The answers
 * are shared constants (no object per line on a list page).
 */
export function mapLineStatus(word: string): LineMapping {
  return Object.prototype.hasOwnProperty.call(LINE_STATUS_MAP, word) ? LINE_STATUS_MAP[word] : UNKNOWN_LINE;
}

/**
 * the contract (docs/contract/): derivation only when there are lines. Every line cancelled → cancelled; every line
 * refunded → refunded; any line unpaid → in_progress; otherwise settled. A line word outside the table makes the
 * order underivable (null): an unknown word is never counted as a sale.
 */
export function deriveTradeStatus(lineStatuses: readonly string[]): TradeStatus | null {
  if (lineStatuses.length === 0) return null;
  if (lineStatuses.some((s) => !mapLineStatus(s).known)) return null;
  if (lineStatuses.every((s) => s === 'cancelled')) return 'cancelled';
  if (lineStatuses.every((s) => s === 'refunded')) return 'refunded';
  if (lineStatuses.some((s) => s === 'unpaid')) return 'in_progress';
  return 'settled';
}

/** A problem with a record that was kept: rendered as a `warning` message. `path` is relative to the order. */
export interface DataWarning {
  code: NoteCode;
  content: string;
  path: string;
}

/**
 * The trade status of a ledger record: the adapter's `state` when it is one of the six, else derived from the lines.
 * `trade_status_raw` keeps the platform's own word (`stateRaw`, else the `state` it sent).
 */
export function resolveTradeStatus(r: {
  orderNo: string;
  state: string | null;
  stateRaw: string | null;
  stateLabel: string | null;
  lines: readonly { status: string }[];
}): { tradeStatus: TradeStatus | null; raw: string | null; label: string | null; warnings: DataWarning[] } {
  const warnings: DataWarning[] = [];
  const raw = r.stateRaw ?? r.state;
  if (r.state !== null && isTradeStatus(r.state)) {
    return { tradeStatus: r.state, raw, label: r.stateLabel, warnings };
  }
  if (r.state !== null) {
    warnings.push({
      code: 'unknown_state',
      content: `sale order ${r.orderNo}: state ${JSON.stringify(r.state)} is not one of the six trade states; it is kept as trade_status_raw and the status is derived from the lines`,
      path: '$.trade_status_raw',
    });
  }
  const derived = deriveTradeStatus(r.lines.map((l) => l.status));
  if (derived === null && r.lines.length > 0) {
    warnings.push({
      code: 'unknown_state',
      content: `sale order ${r.orderNo}: its trade status cannot be derived because a line status is not one of paid, unpaid, refunded, refund_failed, cancelled`,
      path: '$.trade_status',
    });
  }
  return { tradeStatus: derived, raw, label: r.stateLabel, warnings };
}

// ---- ingestion: ledger record → stored rows ----

/** The adapter's ledger record (a plain type from the adapter contract; no framework import). */
export type LedgerRecordInput = LedgerRecord;

export interface SaleOrderRow {
  id: string;
  namespace: string;
  location_id: string;
  total_fen: number;
  taken_at: string;
  has_taken_at: boolean;
  settled_at: string | null;
  updated_at: string | null;
  finalized: boolean | null;
  trade_status: TradeStatus | null;
  trade_status_raw: string | null;
  trade_status_label: string | null;
  data_warnings: DataWarning[] | null;
}

export interface SaleLineRow {
  order_id: string;
  line_no: number;
  vendor_sku: string;
  sku_id: string;
  slot_id: string;
  title: string | null;
  quantity: number;
  price_fen: number;
  status: string;
  cost_fen: number | null;
}

const LOCATION_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Turns one ledger record into the rows to store, or refuses it (`refused` names why). Amounts are taken as the
 * adapter validated them (integer fen); nothing is rounded here. `taken_at` is takenAt, else createdAt.
 */
export function toSaleRows(
  r: LedgerRecordInput,
  namespace: string,
): { ok: true; order: SaleOrderRow; lines: SaleLineRow[]; warnings: DataWarning[] } | { ok: false; refused: string } {
  if (!LOCATION_ID.test(r.locationId)) {
    return { ok: false, refused: `ledger record ${r.orderNo} refused: locationId ${JSON.stringify(r.locationId)} is not a location id` };
  }
  for (const [field, v] of [['totalFen', r.totalFen], ...r.lines.map((l, i) => [`lines[${i}].priceFen`, l.priceFen] as const)] as const) {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      return { ok: false, refused: `ledger record ${r.orderNo} refused: ${field} is not an integer fen amount: ${JSON.stringify(v)}` };
    }
  }
  const status = resolveTradeStatus(r);
  const warnings = [...status.warnings];
  r.lines.forEach((l, i) => {
    if (!mapLineStatus(l.status).known) {
      warnings.push({
        code: 'unknown_state',
        content: `sale order ${r.orderNo}: line ${i + 1} has status ${JSON.stringify(l.status)}, which is not one of paid, unpaid, refunded, refund_failed, cancelled; it is shown as processing`,
        path: `$.line_items[${i}].status`,
      });
    }
  });
  const order: SaleOrderRow = {
    id: r.orderNo,
    namespace,
    location_id: r.locationId,
    total_fen: r.totalFen,
    taken_at: new Date(r.takenAt ?? r.createdAt).toISOString(),
    has_taken_at: r.takenAt !== null,
    settled_at: r.settledAt === null ? null : new Date(r.settledAt).toISOString(),
    updated_at: r.updatedAt === null ? null : new Date(r.updatedAt).toISOString(),
    finalized: r.finalized,
    trade_status: status.tradeStatus,
    trade_status_raw: status.raw,
    trade_status_label: status.label,
    data_warnings: warnings.length ? warnings : null,
  };
  const lines = r.lines.map((l, i) => ({
    order_id: r.orderNo,
    line_no: i + 1,
    vendor_sku: l.vendorSku,
    sku_id: `${namespace}:${l.vendorSku}`,
    slot_id: `${r.locationId}-${l.vendorSku}`,
    title: l.title,
    quantity: l.quantity,
    price_fen: l.priceFen,
    status: l.status,
    cost_fen: l.costFen,
  }));
  return { ok: true, order, lines, warnings };
}

/**
 * Within one batch a record may appear twice (pages shift while the platform revises): keep one per order number,
 * the latest revision (greatest updatedAt; the later one when equal or unknown).
 */
export function latestPerOrder<T extends { orderNo: string; updatedAt: number | null }>(records: readonly T[]): T[] {
  const byId = new Map<string, T>();
  for (const r of records) {
    const prev = byId.get(r.orderNo);
    if (!prev || prev.updatedAt === null || r.updatedAt === null || r.updatedAt >= prev.updatedAt) byId.set(r.orderNo, r);
  }
  return [...byId.values()];
}
