/**
 * A stored sale order as the spec's order shape: the one rendering of a sale, for `GET /orders/{id}` and for each
 * order of a `GET /orders` page (whose page is then one `JSON.stringify` of these objects). Pure.
 */
import { cny } from '../../common/money';
import { mapLineStatus } from '../../sales/sale-order.rules';
import type { TradeStatus } from '../../sales/sale-order.rules';
import type { StoredSale } from '../../sales/sales.repository';
import type { TotalView } from '../../common/envelope/envelope.responses';
import type { AdjustmentView, OrderLineView, OrderView } from './orders.responses';

/**
 * Line statuses by the mapping table with their adjustments, `totals` with exactly one subtotal and one total (the
 * difference, if any, as a discount or fee entry), timestamps and `finalized` only when the platform sent them.
 * `toTime` renders a timestamp (+08:00 in responses) from the driver's text or a Date.
 */
export function renderSaleOrder(s: StoredSale, permalinkBase: string, toTime: (t: string | Date) => string): OrderView {
  let lines = s.lines ?? [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i - 1].line_no > lines[i].line_no) {
      lines = [...lines].sort((a, b) => a.line_no - b.line_no);
      break;
    }
  }
  const adjustments: AdjustmentView[] = [];
  const occurredAt = s.updated_at === null ? null : toTime(s.updated_at);
  let subtotal = 0;
  const lineItems = lines.map((l): OrderLineView => {
    const id = String(l.line_no);
    const m = mapLineStatus(l.status);
    const price = Number(l.price_fen);
    const amount = price * l.quantity;
    subtotal += amount;
    if (m.adjustment === 'refund') {
      adjustments.push({
        id: `${s.id}-refund-${id}`,
        type: 'refund',
        occurred_at: occurredAt,
        status: 'completed',
        line_items: [{ id, quantity: l.quantity }],
        totals: [{ type: 'total', amount: -amount }],
        description: `line ${id} refunded`,
      });
    } else if (m.adjustment === 'refund_failed') {
      adjustments.push({
        id: `${s.id}-refund_failed-${id}`,
        type: 'refund_failed',
        occurred_at: occurredAt,
        status: 'failed',
        line_items: [{ id, quantity: l.quantity }],
        description: `refund of line ${id} failed; the sale stands`,
      });
    } else if (m.adjustment === 'cancellation') {
      adjustments.push({
        id: `${s.id}-cancellation-${id}`,
        type: 'cancellation',
        occurred_at: occurredAt,
        status: 'completed',
        line_items: [{ id, quantity: l.quantity }],
        description: `line ${id} cancelled`,
      });
    }
    return {
      id,
      item: { id: l.sku_id, title: l.title ?? l.vendor_sku, price: cny(price), quantity_unit: 'EA' },
      quantity: {
        original: l.quantity,
        total: m.status === 'removed' ? 0 : l.quantity,
        fulfilled: m.status === 'fulfilled' ? l.quantity : 0,
      },
      totals: [
        { type: 'subtotal', amount },
        { type: 'total', amount },
      ],
      status: m.status,
    };
  });
  const total = Number(s.total_fen);
  const view: OrderView = {
    id: s.id,
    kind: 'sale',
    checkout_id: null,
    permalink_url: `${permalinkBase}/ucp/v1/orders/${encodeURIComponent(s.id)}`,
    currency: 'CNY',
    location: s.location_id,
    location_name: s.location_name,
    trade_status_raw: s.trade_status_raw,
    taken_at: toTime(s.taken_at),
    line_items: lineItems,
    fulfillment: { expectations: [], events: [] },
    adjustments,
    totals: orderTotals(total, lines.length ? subtotal : total),
  };
  if (s.trade_status !== null) view.trade_status = s.trade_status as TradeStatus; // stored by the sync from resolveTradeStatus
  if (s.trade_status_label !== null) view.trade_status_label = s.trade_status_label;
  if (s.finalized !== null) view.finalized = s.finalized;
  if (s.settled_at) view.settled_at = toTime(s.settled_at);
  if (s.updated_at) view.updated_at = toTime(s.updated_at);
  return view;
}

/**
 * subtotal = the lines' amounts (the platform total when there are no lines); total = the platform's total; the
 * difference between them as a discount or a fee.
 */
export function orderTotals(totalFen: number, subtotalFen: number): TotalView[] {
  const out: TotalView[] = [{ type: 'subtotal', amount: subtotalFen }];
  const diff = totalFen - subtotalFen;
  if (diff < 0) out.push({ type: 'discount', amount: diff });
  if (diff > 0) out.push({ type: 'fee', amount: diff });
  out.push({ type: 'total', amount: totalFen });
  return out;
}
