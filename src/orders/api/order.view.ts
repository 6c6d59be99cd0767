/**
 * The UCP JSON of orders, rendered at the edge (declared types: the response classes): a sale from the synced ledger
 * copy (sale-order.view.ts) or a purchase order.
 */
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import { UcpMessage } from '../../common/envelope/envelope';
import { JsonText } from '../../common/envelope/rendered-json';
import { cny } from '../../common/money';
import { pgTimeToPlus8, toPlus8 } from '../../common/time';
import { renderSaleOrder } from './sale-order.view';
import type { FoundOrder, OrdersPage } from '../orders.service';
import type { LogisticsView, OrderResponse, OrdersListResponse, OrderView, SupplierStatusView } from './orders.responses';
import type { PurchaseOrder } from '../../purchases/purchase-order-reader';

const DESCRIPTIONS: Record<string, string> = {
  ordered: 'ordered: the supplier accepted the order; not delivered yet',
  arrived: 'arrived: the goods were delivered',
  cancelled: 'cancelled: the supplier cancelled the order',
};

/** `mapped` is the contract state (ordered, arrived, cancelled) or null when the supplier sent another word. */
export function supplierStatus(state: string | null, raw: string | null): SupplierStatusView {
  const mapped = state && state in DESCRIPTIONS ? (state as SupplierStatusView['mapped']) : null;
  return { code: raw ?? state ?? 'unknown', description: mapped ? DESCRIPTIONS[mapped] : `the supplier reports "${raw ?? state ?? 'nothing'}"`, mapped };
}

/** `base`: the absolute public base (SERVICE_PUBLIC_URL or the request's), so `permalink_url` is absolute. */
export function renderPurchaseOrder(s: PurchaseOrder, base: string): OrderView {
  const status = supplierStatus(s.supplierState, s.supplierRawStatus);
  const lineStatus = status.mapped === 'arrived' ? ('fulfilled' as const) : status.mapped === 'cancelled' ? ('removed' as const) : ('processing' as const);
  const lines = s.lineItems.map((l) => {
    const amount = (l.unit_price_fen ?? 0) * l.quantity;
    return {
      id: l.id,
      item: { id: l.item_id, title: l.title, price: cny(l.unit_price_fen ?? 0), quantity_unit: l.unit },
      quantity: { original: l.quantity, total: status.mapped === 'cancelled' ? 0 : l.quantity, fulfilled: status.mapped === 'arrived' ? l.quantity : 0 },
      totals: [{ type: 'subtotal' as const, amount }, { type: 'total' as const, amount }],
      status: lineStatus,
    };
  });
  const method = (s.fulfillment as { methods?: { type?: string; destinations?: Record<string, unknown>[] }[] } | null)?.methods?.[0];
  // Logistics as the supplier adapter stored them (carrier, trackingNo, status as text; updatedAt in epoch ms).
  const logistics = s.logistics.map((x): LogisticsView => ({
    carrier: (x.carrier as string | undefined) ?? null,
    tracking_number: (x.trackingNo as string | undefined) ?? null,
    status: (x.status as string | undefined) ?? null,
    updated_at: typeof x.updatedAt === 'number' ? toPlus8(x.updatedAt) : null,
  }));
  return {
    id: s.id,
    label: `PO ${s.id}`,
    kind: 'purchase',
    checkout_id: s.id,
    permalink_url: `${base}/ucp/v1/orders/${encodeURIComponent(s.id)}`,
    currency: 'CNY',
    namespace: s.namespace,
    line_items: lines,
    fulfillment: {
      expectations: [
        {
          id: 'exp_1',
          line_items: s.lineItems.map((l) => ({ id: l.id, quantity: l.quantity })),
          method_type: method?.type ?? 'shipping',
          destination: method?.destinations?.[0] ?? null,
        },
      ],
      events: logistics.map((x, i) => ({
        id: `fe_${i + 1}`,
        occurred_at: x.updated_at,
        type: x.status ?? 'logistics',
        line_items: s.lineItems.map((l) => ({ id: l.id, quantity: l.quantity })),
        ...(x.tracking_number ? { tracking_number: x.tracking_number } : {}),
        ...(x.carrier ? { carrier: x.carrier } : {}),
      })),
    },
    adjustments:
      status.mapped === 'cancelled'
        ? [{ id: 'adj_cancel', type: 'cancellation', occurred_at: toPlus8(s.supplierCheckedAt ?? s.completedAt), status: 'completed', totals: [{ type: 'total', amount: -s.totalFen }] }]
        : [],
    totals: [
      { type: 'subtotal', amount: s.totalFen },
      { type: 'total', amount: s.totalFen },
    ],
    supplier_status: status,
    logistics,
    placed_at: toPlus8(s.completedAt),
    supplier_checked_at: s.supplierCheckedAt ? toPlus8(s.supplierCheckedAt) : null,
  };
}

/** One order (`GET /orders/{id}`), with the messages its read left. */
export function renderOrder(found: FoundOrder, base: string): Omit<OrderResponse, 'ucp'> {
  const order = found.kind === 'sale' ? renderSaleOrder(found.sale, base, pgTimeToPlus8) : renderPurchaseOrder(found.order, base);
  return { ...order, messages: found.messages };
}

/**
 * A `GET /orders` page: sales as one `JSON.stringify` of their views, sent as text (issue 13: measured alike to
 * writing the text field by field), purchase orders as views.
 */
export function renderOrdersPage(page: OrdersPage, base: string): Omit<ResponseBody<OrdersListResponse>, 'orders'> & { orders: OrderView[] | JsonText<OrderView[]>; messages: UcpMessage[] } {
  let orders: OrderView[] | JsonText<OrderView[]>;
  if (page.kind === 'purchase') orders = page.orders.map((o) => renderPurchaseOrder(o, base));
  else {
    const views = new Array<OrderView>(page.rows.length);
    for (let i = 0; i < page.rows.length; i++) views[i] = renderSaleOrder(page.rows[i], base, pgTimeToPlus8);
    orders = new JsonText<OrderView[]>(JSON.stringify(views));
  }
  return {
    orders,
    pagination: page.cursor !== null ? { has_next_page: true, cursor: page.cursor } : { has_next_page: false },
    messages: page.messages,
  };
}
