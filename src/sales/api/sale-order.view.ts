/**
 * A stored sale order rendered as the spec's order shape (pure: no Nest or TypeORM import).
 */
import { AdjustmentType, DataWarning, LineStatus, mapLineStatus, TradeStatus } from '../sale-order.rules';

export interface StoredSaleOrder {
  id: string;
  namespace: string;
  locationId: string;
  totalFen: number;
  takenAt: Date;
  settledAt: Date | null;
  updatedAt: Date | null;
  finalized: boolean | null;
  tradeStatus: string | null;
  tradeStatusRaw: string | null;
  tradeStatusLabel: string | null;
  dataWarnings: DataWarning[] | null;
}

export interface StoredSaleLine {
  lineNo: number;
  vendorSku: string;
  skuId: string;
  title: string | null;
  quantity: number;
  priceFen: number;
  status: string;
}

export interface Total {
  type: 'subtotal' | 'discount' | 'fee' | 'total';
  amount: number;
  display_text?: string;
}

export interface SaleOrderView {
  id: string;
  kind: 'sale';
  checkout_id: null;
  permalink_url: string;
  currency: 'CNY';
  location: string;
  location_name: string | null;
  trade_status?: TradeStatus;
  trade_status_raw: string | null;
  trade_status_label?: string;
  finalized?: boolean;
  taken_at: string;
  settled_at?: string;
  updated_at?: string;
  line_items: {
    id: string;
    item: { id: string; title: string; price: { amount: number; currency: 'CNY' }; quantity_unit: 'EA' };
    quantity: { original: number; total: number; fulfilled: number };
    totals: Total[];
    status: LineStatus;
  }[];
  /** A sale is handed over at the machine: nothing to ship. */
  fulfillment: { expectations: never[]; events: never[] };
  adjustments: {
    id: string;
    type: AdjustmentType;
    occurred_at: string | null;
    status: 'completed' | 'failed';
    line_items: { id: string; quantity: number }[];
    totals?: Total[];
    description: string;
  }[];
  totals: Total[];
}

/**
 * The order shape: line statuses by the mapping table with their adjustments, `totals` with exactly one subtotal
 * and one total (the difference, if any, as a discount or fee entry), timestamps and `finalized` only when the
 * platform sent them. `toTime` renders a timestamp (+08:00 in responses).
 */
export function toSaleOrderView(
  o: StoredSaleOrder,
  lines: readonly StoredSaleLine[],
  opts: { permalinkBase: string; locationName: string | null; toTime: (d: Date) => string },
): SaleOrderView {
  const sorted = [...lines].sort((a, b) => a.lineNo - b.lineNo);
  const adjustments: SaleOrderView['adjustments'] = [];
  const occurredAt = o.updatedAt ? opts.toTime(o.updatedAt) : null;
  const lineItems = sorted.map((l) => {
    const id = String(l.lineNo);
    const m = mapLineStatus(l.status);
    const amount = l.priceFen * l.quantity;
    if (m.adjustment === 'refund') {
      adjustments.push({
        id: `${o.id}-refund-${id}`,
        type: 'refund',
        occurred_at: occurredAt,
        status: 'completed',
        line_items: [{ id, quantity: l.quantity }],
        totals: [{ type: 'total', amount: -amount }],
        description: `line ${id} refunded`,
      });
    } else if (m.adjustment === 'refund_failed') {
      adjustments.push({
        id: `${o.id}-refund_failed-${id}`,
        type: 'refund_failed',
        occurred_at: occurredAt,
        status: 'failed',
        line_items: [{ id, quantity: l.quantity }],
        description: `refund of line ${id} failed; the sale stands`,
      });
    } else if (m.adjustment === 'cancellation') {
      adjustments.push({
        id: `${o.id}-cancellation-${id}`,
        type: 'cancellation',
        occurred_at: occurredAt,
        status: 'completed',
        line_items: [{ id, quantity: l.quantity }],
        description: `line ${id} cancelled`,
      });
    }
    return {
      id,
      item: { id: l.skuId, title: l.title ?? l.vendorSku, price: { amount: l.priceFen, currency: 'CNY' as const }, quantity_unit: 'EA' as const },
      quantity: {
        original: l.quantity,
        total: m.status === 'removed' ? 0 : l.quantity,
        fulfilled: m.status === 'fulfilled' ? l.quantity : 0,
      },
      totals: [
        { type: 'subtotal' as const, amount },
        { type: 'total' as const, amount },
      ],
      status: m.status,
    };
  });
  const view: SaleOrderView = {
    id: o.id,
    kind: 'sale',
    checkout_id: null,
    permalink_url: `${opts.permalinkBase}/ucp/v1/orders/${encodeURIComponent(o.id)}`,
    currency: 'CNY',
    location: o.locationId,
    location_name: opts.locationName,
    trade_status_raw: o.tradeStatusRaw,
    taken_at: opts.toTime(o.takenAt),
    line_items: lineItems,
    fulfillment: { expectations: [], events: [] },
    adjustments,
    totals: orderTotals(o.totalFen, sorted),
  };
  if (o.tradeStatus !== null) view.trade_status = o.tradeStatus as TradeStatus; // stored by the sync from resolveTradeStatus
  if (o.tradeStatusLabel !== null) view.trade_status_label = o.tradeStatusLabel;
  if (o.finalized !== null) view.finalized = o.finalized;
  if (o.settledAt) view.settled_at = opts.toTime(o.settledAt);
  if (o.updatedAt) view.updated_at = opts.toTime(o.updatedAt);
  return view;
}

/** subtotal = the lines' amounts (the platform total when there are no lines); total = the platform's total. */
export function orderTotals(totalFen: number, lines: readonly { priceFen: number; quantity: number }[]): Total[] {
  const subtotal = lines.length ? lines.reduce((s, l) => s + l.priceFen * l.quantity, 0) : totalFen;
  const out: Total[] = [{ type: 'subtotal', amount: subtotal }];
  const diff = totalFen - subtotal;
  if (diff < 0) out.push({ type: 'discount', amount: diff });
  if (diff > 0) out.push({ type: 'fee', amount: diff });
  out.push({ type: 'total', amount: totalFen });
  return out;
}
