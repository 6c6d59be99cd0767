/**
 * From a run's per-slot lines to what is ordered from each supplier, and back (pure).
 * The per-slot lines stay on the run (receiving is per slot); the supplier orders are computed from them with
 * aggregation.rules.ts, so they never disagree with the lines.
 */
import type { RunLine } from './replenishment-run.entity';
import type { ReadOutcome as PlaceRecoveryOutcome } from '../../claims/claim.rules';
import { aggregateBySupplier, SlotNeed, SupplierOrder } from '../plan/aggregation.rules';
import { canonicalJson, purchaseKey } from '../../checkout/checkout-subject.rules';
import { createHash } from 'node:crypto';
import type { PackUnit } from '../../partners/adapter.types';

/** The needs of a run's lines. `legacySupplier` fills lines stored before resolution (the supplier's own vendor sku). */
export function needsOf(lines: readonly RunLine[], legacySupplier: string): SlotNeed[] {
  return lines.map((l) => ({
    slot_id: l.slot_id,
    supplier: l.supply?.ordered_from ?? legacySupplier,
    item_id: l.supply?.item.id ?? `${legacySupplier}:${l.vendor_sku}`,
    vendor_sku: l.supply?.vendor_sku ?? l.vendor_sku,
    title: l.title,
    quantity_each: l.quantity_each,
    contains: l.contains,
    unit_price_fen: l.unit_price_fen ?? 0,
  }));
}

/** The run's supplier orders (one per supplier, goods summed and rounded up to the box once). */
export function runOrders(lines: readonly RunLine[], legacySupplier: string): SupplierOrder[] {
  return aggregateBySupplier(needsOf(lines, legacySupplier));
}

/**
 * The lines with each slot's share of the aggregated orders: `ordered_each` (its need, plus the box rounding
 * excess on the last slot of a good) and `cost_estimate_fen` (its share of the line's cost; the shares add up to
 * the run's total). Returns the lines and the total.
 */
export function allocateOrders(lines: readonly RunLine[], legacySupplier: string): { lines: RunLine[]; orders: SupplierOrder[]; totalFen: number } {
  const orders = runOrders(lines, legacySupplier);
  const share = new Map<string, { ordered_each: number; cost_fen: number }>();
  for (const o of orders) for (const l of o.lines) for (const s of l.slots) share.set(s.slot_id, s);
  const out = lines.map((l) => {
    const s = share.get(l.slot_id);
    return s ? { ...l, ordered_each: s.ordered_each, cost_estimate_fen: s.cost_fen } : l;
  });
  return { lines: out, orders, totalFen: orders.reduce((t, o) => t + o.total_fen, 0) };
}

/**
 * The contract lines of an order to `supplier`. A good of another supplier's catalog (the simulated supplier
 * standing in for the resolved supplier in production) is sent by its full supply sku id, which the simulated
 * supplier accepts as a stand-in good.
 */
export function contractLines(order: SupplierOrder): { vendorSku: string; quantity: number; unit: 'each' | 'pack' }[] {
  return order.lines.map((l) => ({
    vendorSku: l.item.id.startsWith(`${order.supplier}:`) ? l.vendor_sku : l.item.id,
    quantity: l.quantity,
    unit: l.unit === 'BX' ? 'pack' : 'each',
  }));
}

/** A run's lines without those of the refused goods (supply item ids): what is kept and what is dropped. */
export function dropItems(lines: readonly RunLine[], refusedItemIds: readonly string[]): { keep: RunLine[]; dropped: RunLine[] } {
  const refused = new Set(refusedItemIds);
  const gone = (l: RunLine) => l.supply !== undefined && refused.has(l.supply.item.id);
  return { keep: lines.filter((l) => !gone(l)), dropped: lines.filter(gone) };
}

/** The checkout session of a supply-checkout run's order to one supplier: id = purchase-order number = supplier ref. */
export function runCheckoutId(runId: string, supplier: string): string {
  return `${runId}.${supplier}`;
}

/** Checkout line items of an order (supply ids, boxes as BX). */
export function checkoutLines(order: SupplierOrder): { item: { id: string }; quantity: number; quantity_unit: { unit: PackUnit } }[] {
  return order.lines.map((l) => ({ item: { id: l.item.id }, quantity: l.quantity, quantity_unit: { unit: l.unit } }));
}

/**
 * An interrupted supply-checkout place, from its purchase orders (session status, `null` = never opened), each
 * already settled by reading its supplier where it could be: every one `completed` → `placed`; one still
 * `complete_in_progress` or uncertain → `unknown` (left for the next attempt); otherwise `not_placed`: the run is
 * ready again and the retry completes only the sessions not completed.
 */
export function purchaseOrdersOutcome(orders: { status: string | null; uncertain: boolean }[]): PlaceRecoveryOutcome {
  if (orders.length > 0 && orders.every((o) => o.status === 'completed')) return 'placed';
  if (orders.some((o) => o.status === 'complete_in_progress' || o.uncertain)) return 'unknown';
  return 'not_placed';
}

/** The fulfillment of a supply-checkout run's purchase order to `supplier`: the supplier's `restock` to the run's machines. */
export function runPurchaseFulfillment(runId: string, lines: readonly RunLine[], supplier: string): { methods: { type: 'restock'; destinations: { name: string; locations: string[] }[] }[] } {
  const locations = [...new Set(lines.filter((l) => l.supply?.ordered_from === supplier).map((l) => l.location))].sort();
  return { methods: [{ type: 'restock', destinations: [{ name: `replenishment run ${runId}`, locations }] }] };
}

/** The purchase-order keys of a supply-checkout run (checkout-subject.rules): what its approval lets checkout complete. */
export function runPurchaseKeys(runId: string, lines: readonly RunLine[], legacySupplier: string): { supplier: string; key: string }[] {
  return runOrders(lines, legacySupplier).map((o) => ({
    supplier: o.supplier,
    key: purchaseKey({
      namespace: o.supplier,
      lines: checkoutLines(o).map((l) => ({ itemId: l.item.id, unit: l.quantity_unit.unit, quantity: l.quantity })),
      fulfillment: runPurchaseFulfillment(runId, lines, o.supplier),
    }),
  }));
}

/**
 * What a run's approval covers (issue 37): every line (slot, good, supplier, units, unit and price), the total and
 * the fulfiller. Dropping a line after the approval gives another key: the run needs a new approval.
 */
export function runKey(lines: readonly RunLine[], totalFen: number, fulfiller: string): string {
  const parts = lines
    .map((l) => [l.slot_id, l.supply?.item.id ?? l.item.id, l.supply?.ordered_from ?? fulfiller, l.quantity_each, l.ordered_each, l.quantity, l.unit, l.unit_price_fen ?? null])
    .map((p) => canonicalJson(p))
    .sort();
  return `run1:${createHash('sha256').update(canonicalJson({ parts, totalFen, fulfiller })).digest('base64url')}`;
}
