/**
 * Aggregation of a run's slot needs into supplier lines (pure; docs/replenishment-policy.md section 5).
 *
 * Per supplier and good: the each-units of every slot that needs the good are summed, then rounded up to the
 * supplier's box ONCE (two slots needing 5 each of a 12-box good order one box, not two). The per-slot split is
 * kept for receiving: each slot is allotted its own need, and the rounding excess goes to the last slot of the good.
 */
import type { PackUnit } from '../../partners/adapter.types';

export interface SlotNeed {
  slot_id: string;
  /** Who the order goes to (a supply namespace). */
  supplier: string;
  /** The good as the supplier sells it (supply sku id) and its vendor sku there. */
  item_id: string;
  vendor_sku: string;
  title: string;
  /** Units (each) the slot needs. */
  quantity_each: number;
  /** Units per box (1: sold by the piece). */
  contains: number;
  /** Price of one box when contains > 1, else of one each. */
  unit_price_fen: number;
}

export interface SlotShare {
  slot_id: string;
  quantity_each: number;
  /** What the slot receives of the ordered units: its need, plus the rounding excess for the last slot. */
  ordered_each: number;
  /** Its share of the line's cost: in proportion to ordered_each, the rounding remainder to the last slot. */
  cost_fen: number;
}

export interface SupplierLine {
  item: { id: string };
  vendor_sku: string;
  title: string;
  unit: PackUnit;
  contains: number;
  /** In `unit`: boxes, or each. */
  quantity: number;
  quantity_each: number;
  ordered_each: number;
  unit_price_fen: number;
  cost_fen: number;
  slots: SlotShare[];
}

export interface SupplierOrder {
  supplier: string;
  lines: SupplierLine[];
  total_fen: number;
}

/** Supplier orders (sorted by supplier, lines in first-seen order), needs of 0 left out. */
export function aggregateBySupplier(needs: readonly SlotNeed[]): SupplierOrder[] {
  const orders = new Map<string, Map<string, { first: SlotNeed; slots: SlotNeed[] }>>();
  for (const n of needs) {
    if (!(n.quantity_each > 0)) continue;
    let goods = orders.get(n.supplier);
    if (!goods) orders.set(n.supplier, (goods = new Map()));
    const g = goods.get(n.item_id);
    if (g) g.slots.push(n);
    else goods.set(n.item_id, { first: n, slots: [n] });
  }
  const out: SupplierOrder[] = [];
  for (const supplier of [...orders.keys()].sort()) {
    const lines = [...orders.get(supplier)!.values()].map(({ first, slots }) => lineOf(first, slots));
    out.push({ supplier, lines, total_fen: lines.reduce((t, l) => t + l.cost_fen, 0) });
  }
  return out;
}

function lineOf(first: SlotNeed, slots: SlotNeed[]): SupplierLine {
  const contains = Math.max(1, Math.trunc(first.contains));
  const each = slots.reduce((t, s) => t + s.quantity_each, 0);
  const quantity = Math.ceil(each / contains);
  const ordered = quantity * contains;
  const cost = quantity * first.unit_price_fen;
  let leftEach = ordered;
  let leftCost = cost;
  const shares = slots.map((s, i): SlotShare => {
    const last = i === slots.length - 1;
    const got = last ? leftEach : s.quantity_each;
    const paid = last ? leftCost : Math.floor((cost * got) / ordered);
    leftEach -= got;
    leftCost -= paid;
    return { slot_id: s.slot_id, quantity_each: s.quantity_each, ordered_each: got, cost_fen: paid };
  });
  return {
    item: { id: first.item_id },
    vendor_sku: first.vendor_sku,
    title: first.title,
    unit: contains > 1 ? 'BX' : 'EA',
    contains,
    quantity,
    quantity_each: each,
    ordered_each: ordered,
    unit_price_fen: first.unit_price_fen,
    cost_fen: cost,
    slots: shares,
  };
}
