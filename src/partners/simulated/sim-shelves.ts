/**
 * The shelves of the simulated machines as time passes (issue 25): every order the seed plans after start-up takes
 * its goods from the slot, so stock falls with the service clock; an empty slot sells nothing, and the ledger shows
 * the order as it could happen (shorter lines, or no order). Sales before start-up are history and leave the
 * start-up stock as the seed made it. Deliveries (completed restocks, goods received by hand) go back on the shelf.
 */
import { DAY_MS, dayIndexOf, LEDGER_DAYS, SimOrderPlan, SimSlot } from './mock-data';

/** Outcomes whose goods left the machine: a cancelled or unpaid order dispensed nothing. */
const TAKES_GOODS = new Set<SimOrderPlan['outcome']>(['paid', 'review', 'refunded', 'refund_failed']);

export class SimShelves {
  private soldThrough: number;
  /** Orders the shelves could not serve in full: the units served per line index (a missing index was served in full). */
  private readonly short = new Map<string, { createdAt: number; served: Map<number, number> }>();

  constructor(
    private readonly slots: ReadonlyMap<string, SimSlot[]>,
    startedAt: number,
    private readonly plansOf: (dayIndex: number) => SimOrderPlan[],
  ) {
    this.soldThrough = startedAt;
  }

  /** Sells, in time order, every order created after the last call and up to `until`. */
  sellUntil(until: number): void {
    if (until <= this.soldThrough) return;
    const from = this.soldThrough;
    const due: SimOrderPlan[] = [];
    for (let d = dayIndexOf(from); d <= dayIndexOf(until); d++) {
      for (const p of this.plansOf(d)) if (p.createdAt > from && p.createdAt <= until && TAKES_GOODS.has(p.outcome)) due.push(p);
    }
    due.sort((a, b) => a.createdAt - b.createdAt || (a.orderNo < b.orderNo ? -1 : 1));
    for (const p of due) this.sell(p);
    this.soldThrough = until;
    // Bounded memory: the ledger never shows orders older than its window.
    const oldest = until - (LEDGER_DAYS + 2) * DAY_MS;
    for (const [no, s] of this.short) if (s.createdAt < oldest) this.short.delete(no);
  }

  /** Puts `quantity` units on the shelf, capped at the slot's capacity; the units that went in. */
  deliver(slot: SimSlot, quantity: number): number {
    const put = Math.max(0, Math.min(quantity, slot.capacity - slot.stock));
    slot.stock += put;
    return put;
  }

  /** The order as the shelves let it happen, or null when an empty shelf served none of it. */
  served(plan: SimOrderPlan): SimOrderPlan | null {
    const s = this.short.get(plan.orderNo);
    if (!s) return plan;
    const lines = plan.lines.map((l, i) => ({ ...l, quantity: s.served.get(i) ?? l.quantity })).filter((l) => l.quantity > 0);
    return lines.length ? { ...plan, lines } : null;
  }

  private sell(p: SimOrderPlan): void {
    const shelf = this.slots.get(p.locationId) ?? [];
    let served: Map<number, number> | null = null;
    p.lines.forEach((l, i) => {
      const slot = shelf.find((s) => s.vendorSku === l.vendorSku);
      const take = slot ? Math.min(l.quantity, slot.stock) : 0;
      if (slot) slot.stock -= take;
      if (take < l.quantity) (served ??= new Map()).set(i, take);
    });
    if (served) this.short.set(p.orderNo, { createdAt: p.createdAt, served });
  }
}
