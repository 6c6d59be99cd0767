/**
 * The UCP JSON of a replenishment run (pure: no Nest, no TypeORM), rendered once at the edge from the services'
 * `RunDetail` / `RunListed` (run.types.ts). The declared types are the OpenAPI response classes, so the compiler
 * holds the answer to its document.
 */
import type { UcpMessage } from '../../common/envelope/envelope';
import { cny } from '../../common/money';
import { toPlus8, toPlus8OrNull } from '../../common/time';
import { skuId } from '../../identifiers/identifiers';
import { runFulfillerKind } from '../fulfiller-kind';
import { lineOnOrder } from '../plan/inventory-position.rules';
import type { ReplenishmentRunEntity } from '../runs/replenishment-run.entity';
import type {
  RunFulfillerView,
  RunLineView,
  RunPurchaseOrderView,
  RunResponse,
  RunRestockOrderView,
  RunSummaryView,
} from './runs.responses';
import type { RunStatus } from '../runs/run.rules';
import type { RunDetail, RunListed, RunPurchaseOrderState, RunRestockOrderState } from '../runs/run.types';

export const REPLENISHMENT_CAPS = ['com.example.svc.replenishment'];

/** The body of a run's answer (`ok()` adds the `ucp` header). */
export type RunBody = Omit<RunResponse, 'ucp'>;

const price = (amount: number | null) => (amount === null ? null : cny(amount));

/**
 * `simulated_supplier`: its namespace. Several namespaces (the fulfiller's trait: machine platforms, suppliers): the
 * one when the run has one, else null, and `namespaces`.
 */
function renderFulfiller(r: ReplenishmentRunEntity, manyNamespaces: boolean): RunFulfillerView {
  const kind = runFulfillerKind(r);
  if (!manyNamespaces) return { kind, namespace: r.fulfiller };
  const namespaces = r.fulfiller === '' ? [] : r.fulfiller.split(',');
  return { kind, namespace: namespaces.length === 1 ? namespaces[0] : null, namespaces };
}

/** The fields a run and a run in a list share. */
function renderBase({ run: r, manyNamespaces }: RunListed): Omit<RunSummaryView, 'line_count'> {
  return {
    id: r.id,
    status: r.status as RunStatus,
    fulfiller: renderFulfiller(r, manyNamespaces),
    cost_is_estimated: r.costIsEstimated,
    total_cost_estimate: price(r.totalCostFen),
    approval_id: r.approvalId,
    supplier_order_id: r.supplierOrderId,
    created_at: toPlus8(r.createdAt),
    placed_at: toPlus8OrNull(r.placedAt),
    delivered_at: toPlus8OrNull(r.deliveredAt),
    note: r.note,
  };
}

/** The run as answered, with its partner-side orders; `messages`: what its creation says (none otherwise). */
export function renderRun(d: RunDetail, messages: UcpMessage[] = []): RunBody {
  const r = d.run;
  const closed = new Set((r.delivered ?? []).map((x) => x.slot_id));
  const poDone = new Set((d.purchaseOrders ?? []).filter((p) => p.status === 'completed').map((p) => p.supplier));
  const lines = r.lines.map(
    (l): RunLineView => ({
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
    }),
  );
  // In the order the answer has always had.
  const { id, status, fulfiller, cost_is_estimated, total_cost_estimate, note, ...rest } = renderBase(d);
  return {
    id,
    status,
    fulfiller,
    cost_is_estimated,
    total_cost_estimate,
    lines,
    ...rest,
    delivered: r.delivered,
    note,
    ...(d.restockOrders ? { restock_orders: d.restockOrders.map(renderRestockOrder) } : {}),
    ...(d.purchaseOrders ? { purchase_orders: d.purchaseOrders.map(renderPurchaseOrder) } : {}),
    messages,
  };
}

/** A run in a list: everything but its lines (a fleet run has tens of thousands), with their count. */
export function renderRunSummary(listed: RunListed): RunSummaryView {
  const { id, status, fulfiller, cost_is_estimated, total_cost_estimate, ...rest } = renderBase(listed);
  return { id, status, fulfiller, cost_is_estimated, total_cost_estimate, line_count: listed.run.lines.length, ...rest };
}

function renderRestockOrder(o: RunRestockOrderState): RunRestockOrderView {
  return {
    location: o.location,
    namespace: o.namespace,
    reference: o.reference,
    status: o.status as RunRestockOrderView['status'],
    external_ref: o.externalRef,
    sent_at: toPlus8OrNull(o.sentAt),
    completed_at: toPlus8OrNull(o.completedAt),
    delivered: o.delivered ? o.delivered.map((x) => ({ item: { id: skuId(o.namespace, x.vendorSku) }, quantity: x.quantity })) : null,
  };
}

function renderPurchaseOrder(p: RunPurchaseOrderState): RunPurchaseOrderView {
  return {
    checkout_id: p.checkoutId,
    supplier: p.supplier,
    status: p.status as RunPurchaseOrderView['status'],
    total: cny(p.totalFen),
    order_id: p.orderId,
  };
}
