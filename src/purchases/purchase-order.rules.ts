/** Pure mapping of a completed checkout session and the supplier's order status to the order shape. */
import type { StoredLine } from '../checkout/checkout-session.entity';
import { parseRfc3339 } from '../common/time';

export interface PurchaseSource {
  id: string;
  namespace: string;
  lineItems: StoredLine[];
  fulfillment: Record<string, unknown> | null;
  totalFen: number;
  supplierState: string | null;
  supplierRawStatus: string | null;
  logistics: Record<string, unknown>[];
  completedAt: Date;
  supplierCheckedAt: Date | null;
}

const DESCRIPTIONS: Record<string, string> = {
  ordered: 'ordered: the supplier accepted the order; not delivered yet',
  arrived: 'arrived: the goods were delivered',
  cancelled: 'cancelled: the supplier cancelled the order',
};

/** `mapped` is the contract state (ordered, arrived, cancelled) or null when the supplier sent another word. */
export function supplierStatus(state: string | null, raw: string | null): { code: string; description: string; mapped: string | null } {
  const mapped = state && state in DESCRIPTIONS ? state : null;
  return { code: raw ?? state ?? 'unknown', description: mapped ? DESCRIPTIONS[mapped] : `the supplier reports "${raw ?? state ?? 'nothing'}"`, mapped };
}

export function isOpen(state: string | null): boolean {
  return state !== 'arrived' && state !== 'cancelled';
}

export function renderPurchaseOrder(s: PurchaseSource, base: string, plus8: (d: Date | number) => string): Record<string, unknown> {
  const status = supplierStatus(s.supplierState, s.supplierRawStatus);
  const lineStatus = status.mapped === 'arrived' ? 'fulfilled' : status.mapped === 'cancelled' ? 'removed' : 'processing';
  const lines = s.lineItems.map((l) => {
    const amount = (l.unit_price_fen ?? 0) * l.quantity;
    return {
      id: l.id,
      item: { id: l.item_id, title: l.title, price: { amount: l.unit_price_fen ?? 0, currency: 'CNY' }, quantity_unit: l.unit },
      quantity: { original: l.quantity, total: status.mapped === 'cancelled' ? 0 : l.quantity, fulfilled: status.mapped === 'arrived' ? l.quantity : 0 },
      totals: [{ type: 'subtotal', amount }, { type: 'total', amount }],
      status: lineStatus,
    };
  });
  const method = (s.fulfillment as { methods?: { type?: string; destinations?: unknown[] }[] } | null)?.methods?.[0];
  const logistics = s.logistics.map((x) => ({
    carrier: x.carrier ?? null,
    tracking_number: x.trackingNo ?? null,
    status: x.status ?? null,
    updated_at: typeof x.updatedAt === 'number' ? plus8(x.updatedAt) : null,
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
        ? [{ id: 'adj_cancel', type: 'cancellation', occurred_at: plus8(s.supplierCheckedAt ?? s.completedAt), status: 'completed', totals: [{ type: 'total', amount: -s.totalFen }] }]
        : [],
    totals: [
      { type: 'subtotal', amount: s.totalFen },
      { type: 'total', amount: s.totalFen },
    ],
    supplier_status: status,
    logistics,
    placed_at: plus8(s.completedAt),
    supplier_checked_at: s.supplierCheckedAt ? plus8(s.supplierCheckedAt) : null,
  };
}

/** Keyset cursor over (completed_at, id). */
export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');
}

/** A forged cursor never reaches PostgreSQL: the id is a session id and the time one PostgreSQL can hold. */
export function decodeCursor(c: string): { completedAt: Date; id: string } | null {
  try {
    const [at, id] = JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as [string, string];
    if (typeof at !== 'string' || typeof id !== 'string' || !SESSION_ID.test(id)) return null;
    const d = parseRfc3339(at);
    return d ? { completedAt: d, id } : null;
  } catch {
    return null;
  }
}

const SESSION_ID = /^[A-Za-z0-9._-]{1,200}$/;
