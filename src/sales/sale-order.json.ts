/**
 * The sale order shape rendered straight to JSON text for the `GET /orders` page (issue 13): the same bytes as
 * `JSON.stringify(toSaleOrderView(...))` (a property test holds the two together) without building the view objects.
 * Pure: no Nest or TypeORM import.
 */
import { LINE_STATUS_MAP } from './sale-order.rules';
import type { DataWarning } from './sale-order.rules';

const UNKNOWN_LINE = { status: 'processing', adjustment: null } as const;

/** One page row as the page query returns it (timestamps as driver text, or Dates from another driver). */
export interface SalePageRow {
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
  /** The sort key as exact UTC text with microseconds (for the cursor). */
  sort_key: string;
  lines: SalePageLine[] | null;
}

export interface SalePageLine {
  line_no: number;
  vendor_sku: string;
  sku_id: string;
  title: string | null;
  quantity: number;
  price_fen: string | number;
  status: string;
}

const str = JSON.stringify;

export function saleOrderJson(r: SalePageRow, permalinkBase: string, toTime: (t: string | Date) => string): string {
  let lines = r.lines ?? [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i - 1].line_no > lines[i].line_no) {
      lines = [...lines].sort((a, b) => a.line_no - b.line_no);
      break;
    }
  }
  const occurredAt = r.updated_at === null ? 'null' : str(toTime(r.updated_at));
  const id = str(r.id);
  let items = '';
  let adjustments = '';
  let subtotal = 0;
  for (const l of lines) {
    const lineId = String(l.line_no);
    // A word outside the table shows as processing (mapLineStatus), without a new object per line.
    const m = Object.prototype.hasOwnProperty.call(LINE_STATUS_MAP, l.status) ? LINE_STATUS_MAP[l.status] : UNKNOWN_LINE;
    const price = Number(l.price_fen);
    const q = l.quantity;
    const amount = price * q;
    subtotal += amount;
    if (m.adjustment !== null) {
      const adjId = str(`${r.id}-${m.adjustment}-${lineId}`);
      const lineRef = `"line_items":[{"id":"${lineId}","quantity":${q}}]`;
      const head = `{"id":${adjId},"type":"${m.adjustment}","occurred_at":${occurredAt},`;
      if (m.adjustment === 'refund') {
        adjustments += `${adjustments ? ',' : ''}${head}"status":"completed",${lineRef},"totals":[{"type":"total","amount":${-amount}}],"description":"line ${lineId} refunded"}`;
      } else if (m.adjustment === 'refund_failed') {
        adjustments += `${adjustments ? ',' : ''}${head}"status":"failed",${lineRef},"description":"refund of line ${lineId} failed; the sale stands"}`;
      } else {
        adjustments += `${adjustments ? ',' : ''}${head}"status":"completed",${lineRef},"description":"line ${lineId} cancelled"}`;
      }
    }
    items +=
      `${items ? ',' : ''}{"id":"${lineId}","item":{"id":${str(l.sku_id)},"title":${str(l.title ?? l.vendor_sku)},"price":{"amount":${price},"currency":"CNY"},"quantity_unit":"EA"},` +
      `"quantity":{"original":${q},"total":${m.status === 'removed' ? 0 : q},"fulfilled":${m.status === 'fulfilled' ? q : 0}},` +
      `"totals":[{"type":"subtotal","amount":${amount}},{"type":"total","amount":${amount}}],"status":"${m.status}"}`;
  }
  const total = Number(r.total_fen);
  if (lines.length === 0) subtotal = total;
  const diff = total - subtotal;
  const totals = `[{"type":"subtotal","amount":${subtotal}}${diff < 0 ? `,{"type":"discount","amount":${diff}}` : diff > 0 ? `,{"type":"fee","amount":${diff}}` : ''},{"type":"total","amount":${total}}]`;
  let out =
    `{"id":${id},"kind":"sale","checkout_id":null,"permalink_url":${str(`${permalinkBase}/ucp/v1/orders/${encodeURIComponent(r.id)}`)},"currency":"CNY",` +
    `"location":${str(r.location_id)},"location_name":${r.location_name === null ? 'null' : str(r.location_name)},` +
    `"trade_status_raw":${r.trade_status_raw === null ? 'null' : str(r.trade_status_raw)},"taken_at":${str(toTime(r.taken_at))},` +
    `"line_items":[${items}],"fulfillment":{"expectations":[],"events":[]},"adjustments":[${adjustments}],"totals":${totals}`;
  if (r.trade_status !== null) out += `,"trade_status":${str(r.trade_status)}`;
  if (r.trade_status_label !== null) out += `,"trade_status_label":${str(r.trade_status_label)}`;
  if (r.finalized !== null) out += `,"finalized":${r.finalized}`;
  if (r.settled_at) out += `,"settled_at":${str(toTime(r.settled_at))}`;
  if (r.updated_at) out += `,"updated_at":${str(toTime(r.updated_at))}`;
  return `${out}}`;
}
