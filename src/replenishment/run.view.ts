import { toPlus8, toPlus8OrNull } from '../common/time';
import { skuId } from '../identifiers/identifiers';
import { ReplenishmentRunEntity, RunDelivery } from './replenishment-run.entity';
import { lineOnOrder } from './inventory-position.rules';

export const REPLENISHMENT_CAPS = ['com.example.svc.replenishment'];

const price = (amount: number | null) => (amount === null ? null : { amount, currency: 'CNY' as const });

/** A binding restock order of a machine-restock run (one per location). */
export interface RunRestockOrderView {
  location: string;
  namespace: string;
  reference: string;
  /**
   * `not_sent`, `sending` (being sent, or its outcome is not known yet: the platform is read before anything is sent
   * again), `failed`, then the platform's `pending`, `in_progress`, `completed`, `cancelled`.
   */
  status: string;
  external_ref: string | null;
  sent_at: Date | null;
  completed_at: Date | null;
  delivered: { vendorSku: string; quantity: number }[] | null;
}

/** A purchase order of a supply-checkout run: its checkout session (id = purchase-order number = supplier ref). */
export interface RunPurchaseOrderView {
  checkout_id: string;
  supplier: string;
  /** The session's status (`completed` once the supplier took the order), or `not_opened` before the first place. */
  status: string;
  total: { amount: number; currency: 'CNY' };
  order_id: string | null;
}

export interface RunView {
  id: string;
  status: string;
  /**
   * `simulated_supplier`: its namespace. `machine_restock`: the machine platform when the run has one, else null,
   * and `namespaces` (each location is ordered from its own platform). `supply_checkout`: likewise, the suppliers.
   */
  fulfiller: { kind: string; namespace: string | null; namespaces?: string[] };
  cost_is_estimated: boolean;
  total_cost_estimate: { amount: number; currency: 'CNY' } | null;
  lines: Record<string, unknown>[];
  approval_id: string | null;
  supplier_order_id: string | null;
  created_at: string;
  placed_at: string | null;
  delivered_at: string | null;
  delivered: RunDelivery[] | null;
  note: string | null;
  /** Supply-checkout runs only: one purchase order (checkout session) per supplier. */
  purchase_orders?: RunPurchaseOrderView[];
  /** Machine-restock runs only. */
  restock_orders?: {
    location: string;
    namespace: string;
    reference: string;
    status: string;
    external_ref: string | null;
    sent_at: string | null;
    completed_at: string | null;
    delivered: { item: { id: string }; quantity: number }[] | null;
  }[];
}

/** `manyNamespaces`: the fulfiller's trait (its column lists its platforms or suppliers, comma-separated). */
function fulfillerOf(r: ReplenishmentRunEntity, manyNamespaces: boolean): RunView['fulfiller'] {
  if (!manyNamespaces) return { kind: r.fulfillerKind, namespace: r.fulfiller };
  const namespaces = r.fulfiller === '' ? [] : r.fulfiller.split(',');
  return { kind: r.fulfillerKind, namespace: namespaces.length === 1 ? namespaces[0] : null, namespaces };
}

/** The run as answered; `extras`: what its fulfiller adds (its restock orders or purchase orders). */
export function toRunView(
  r: ReplenishmentRunEntity,
  manyNamespaces: boolean,
  extras: { restock_orders?: RunRestockOrderView[]; purchase_orders?: RunPurchaseOrderView[] } = {},
): RunView {
  const orders = extras.restock_orders;
  const purchaseOrders = extras.purchase_orders;
  const closed = new Set((r.delivered ?? []).map((d) => d.slot_id));
  const poDone = new Set((purchaseOrders ?? []).filter((p) => p.status === 'completed').map((p) => p.supplier));
  return {
    id: r.id,
    status: r.status,
    fulfiller: fulfillerOf(r, manyNamespaces),
    cost_is_estimated: r.costIsEstimated,
    total_cost_estimate: price(r.totalCostFen),
    lines: r.lines.map((l) => ({
      slot_id: l.slot_id,
      location: l.location,
      item: l.item,
      title: l.title,
      unit: l.unit,
      contains: l.contains,
      quantity: l.quantity,
      quantity_each: l.quantity_each,
      ordered_each: l.ordered_each,
      unit_price: price(l.unit_price_fen),
      cost_estimate: price(l.cost_estimate_fen),
      stock_at_plan: l.stock,
      capacity: l.capacity,
      target: l.target,
      on_order: lineOnOrder({
        run_id: r.id,
        status: r.status,
        slot_id: l.slot_id,
        ordered_each: l.ordered_each,
        closed: closed.has(l.slot_id),
        po_completed: l.supply !== undefined && poDone.has(l.supply.ordered_from),
      }),
      // The supply good it resolved to and who it is ordered from (supplier runs).
      ...(l.supply ? { supply: { item: l.supply.item, namespace: l.supply.namespace, via: l.supply.via, ordered_from: l.supply.ordered_from } } : {}),
    })),
    approval_id: r.approvalId,
    supplier_order_id: r.supplierOrderId,
    created_at: toPlus8(r.createdAt),
    placed_at: toPlus8OrNull(r.placedAt),
    delivered_at: toPlus8OrNull(r.deliveredAt),
    delivered: r.delivered,
    note: r.note,
    ...(orders
      ? {
          restock_orders: orders.map((o) => ({
            location: o.location,
            namespace: o.namespace,
            reference: o.reference,
            status: o.status,
            external_ref: o.external_ref,
            sent_at: toPlus8OrNull(o.sent_at),
            completed_at: toPlus8OrNull(o.completed_at),
            delivered: o.delivered ? o.delivered.map((d) => ({ item: { id: skuId(o.namespace, d.vendorSku) }, quantity: d.quantity })) : null,
          })),
        }
      : {}),
    ...(purchaseOrders ? { purchase_orders: purchaseOrders } : {}),
  };
}

/** A run in a list: everything but its lines (a fleet run has tens of thousands), with their count. */
export type RunSummary = Omit<RunView, 'lines' | 'delivered'> & { line_count: number };

export function toRunSummary(r: ReplenishmentRunEntity, manyNamespaces: boolean): RunSummary {
  const full = toRunView({ ...r, lines: [], delivered: null } as ReplenishmentRunEntity, manyNamespaces);
  return {
    id: full.id,
    status: full.status,
    fulfiller: full.fulfiller,
    cost_is_estimated: full.cost_is_estimated,
    total_cost_estimate: full.total_cost_estimate,
    line_count: r.lines.length,
    approval_id: full.approval_id,
    supplier_order_id: full.supplier_order_id,
    created_at: full.created_at,
    placed_at: full.placed_at,
    delivered_at: full.delivered_at,
    note: full.note,
  };
}
