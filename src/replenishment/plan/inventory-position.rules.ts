/**
 * Inventory position (pure; docs/replenishment-policy.md, "Inventory position"): what a slot has is its stock plus
 * what is already on its way to it, so a plan never orders twice what a placed run will bring.
 *
 *   on order (slot) = Σ ordered_each of the open lines of every run that ordered for the slot
 *   need            = max(0, target − (stock + on order))
 *
 * A line is on order while it is not closed (received, short-closed or closed by an operator) and its run's order
 * exists or may exist: the run is `placing` (the order may be in flight) or `placed`, or it is a supply-checkout
 * run whose purchase order to the line's supplier was completed although the run as a whole is not placed.
 */

/** One line of a run that may be on order, as the repository reads it. */
export interface RunLineOrderRow {
  run_id: string;
  status: string;
  slot_id: string;
  ordered_each: number;
  /** A receipt or a close ended the line. */
  closed: boolean;
  /** Supply-checkout runs: the purchase order that carries this line was completed. */
  po_completed: boolean;
  /** The line's good (machine sku id) and the units its slot needed (the rest is box rounding), when read. */
  sku_id?: string;
  quantity_each?: number;
}

export interface SlotOnOrder {
  units: number;
  runs: { id: string; status: string; units: number }[];
}

/** Run statuses whose order exists or may exist. */
export const ORDERED_RUN_STATUSES = ['placing', 'placed'] as const;

export function lineOnOrder(r: RunLineOrderRow): number {
  if (r.closed) return 0;
  const ordered = (ORDERED_RUN_STATUSES as readonly string[]).includes(r.status) || r.po_completed;
  return ordered ? Math.max(0, Math.trunc(r.ordered_each)) : 0;
}

/** Units on order per slot, with the runs behind them (a run once per slot). */
export function onOrderBySlot(rows: readonly RunLineOrderRow[]): Map<string, SlotOnOrder> {
  const out = new Map<string, SlotOnOrder>();
  for (const r of rows) {
    const units = lineOnOrder(r);
    if (units <= 0) continue;
    let s = out.get(r.slot_id);
    if (!s) out.set(r.slot_id, (s = { units: 0, runs: [] }));
    s.units += units;
    const run = s.runs.find((x) => x.id === r.run_id);
    if (run) run.units += units;
    else s.runs.push({ id: r.run_id, status: r.status, units });
  }
  return out;
}

/** A run that ordered after another run was drafted (read by the repository). */
export interface LaterOrder {
  id: string;
  status: string;
  slot_ids: string[];
  /** Some unit of it arrived (a closed run that delivered nothing changed no slot). */
  received_any: boolean;
  /** A purchase order of it was completed (supply checkout, run not placed as a whole). */
  po_completed: boolean;
}

/**
 * The runs that make a drafted run stale: ordered (claimed or placed) after the draft was made, for one of its slots.
 * The draft counted neither their units on order nor their deliveries, so placing it as it stands orders twice.
 * A run closed without receiving anything, or back to ready with nothing completed, ordered nothing that lasts.
 */
export function supersedingRuns(draftSlots: readonly string[], later: readonly LaterOrder[]): string[] {
  const mine = new Set(draftSlots);
  return later
    .filter((o) => {
      const counts =
        (ORDERED_RUN_STATUSES as readonly string[]).includes(o.status) ||
        o.status === 'delivered' ||
        (o.status === 'closed' && o.received_any) ||
        o.po_completed;
      return counts && o.slot_ids.some((s) => mine.has(s));
    })
    .map((o) => o.id)
    .sort();
}

/** One received line as recorded on the run. */
export interface LineReceipt {
  slot_id: string;
  /** Units (each) that arrived for the slot. */
  quantity: number;
  ordered_each: number;
  /** Ordered but not delivered; the line is closed all the same. */
  shortfall: number;
  /** Closed by an operator without a delivery (the run will never arrive). */
  closed?: boolean;
}

/** The receipt of a line that got `quantity` units: a short delivery closes it with the shortfall recorded. */
export function receiptOf(slotId: string, orderedEach: number, quantity: number): LineReceipt {
  return { slot_id: slotId, quantity, ordered_each: orderedEach, shortfall: Math.max(0, orderedEach - quantity) };
}

/** The receipts that close every line still open when an operator closes the run. */
export function closeOpenLines(lines: readonly { slot_id: string; ordered_each: number }[], closedSlots: ReadonlySet<string>): LineReceipt[] {
  return lines
    .filter((l) => !closedSlots.has(l.slot_id))
    .map((l) => ({ slot_id: l.slot_id, quantity: 0, ordered_each: l.ordered_each, shortfall: l.ordered_each, closed: true }));
}

/** True when every line of the run has a receipt (the run is delivered). */
export function allLinesClosed(lines: readonly { slot_id: string }[], closedSlots: ReadonlySet<string>): boolean {
  return lines.every((l) => closedSlots.has(l.slot_id));
}

/** A slot as the plan reads it now, for `expectedToDepot`. */
export interface SlotNow {
  stock: number;
  capacity: number | null;
  ratePerDay: number;
}

/**
 * Units of the open lines on their way to the depot for other slots, per good (issue 25, box rounding): a line
 * brings its `ordered_each`, of which its own slot needed `quantity_each` (the rest is the run's box rounding); at
 * receipt the slot takes what it has room for (receive caps at capacity) and the rest goes to the depot. What other
 * slots may count on is the part that is both beyond the slot's need and beyond its room: units of the slot's own
 * need that do not fit (the room rule) wait in the depot for the slot itself. The room at receipt is estimated as
 * capacity − (stock now − sales over the lead time), which leans high, so the estimate leans low. Several open lines
 * of a slot share its room, in order. A slot without a known capacity takes everything; a slot the plan does not
 * read is skipped.
 */
export function expectedToDepot(rows: readonly RunLineOrderRow[], slots: ReadonlyMap<string, SlotNow>, leadTimeDays: number): Map<string, number> {
  const out = new Map<string, number>();
  const room = new Map<string, number>();
  for (const r of rows) {
    const units = lineOnOrder(r);
    const slot = slots.get(r.slot_id);
    if (units <= 0 || !slot || r.sku_id === undefined || slot.capacity === null) continue;
    const left = room.get(r.slot_id) ?? Math.max(0, slot.capacity - Math.max(0, slot.stock - Math.max(0, slot.ratePerDay) * Math.max(0, leadTimeDays)));
    const taken = Math.min(units, left);
    room.set(r.slot_id, left - taken);
    const beyondNeed = Math.max(0, units - Math.max(0, r.quantity_each ?? units));
    const excess = Math.floor(Math.min(beyondNeed, units - taken));
    if (excess > 0) out.set(r.sku_id, (out.get(r.sku_id) ?? 0) + excess);
  }
  return out;
}

/**
 * The order in which slots are served from the depot (and from units on their way to it): fewest days of cover on
 * their position first, (stock + on order) / rate; a slot that sells nothing last; ties in the input order. Indexes
 * into `slots`. Served in the plan's slot order, a depot's units went to whichever slot came first, and the slot
 * about to run empty bought and waited a lead time.
 */
export function coverOrder(slots: readonly { stock: number; onOrder: number; ratePerDay: number }[]): number[] {
  const cover = slots.map((s) => (s.ratePerDay > 0 ? (Math.max(0, s.stock) + Math.max(0, s.onOrder)) / s.ratePerDay : Infinity));
  return slots.map((_s, i) => i).sort((a, b) => (cover[a] === cover[b] ? a - b : cover[a] < cover[b] ? -1 : 1));
}
