/**
 * The depot's rules (pure; docs/replenishment-policy.md section 8): what a delivery leaves beyond a slot's capacity
 * goes to the depot (never beyond what its line ordered), the plan serves slots from the depot before buying, a fill moves units depot → slot, and a
 * stock count sets what the depot holds.
 */

/**
 * A receipt on a run's line (issue 37): the slot takes what arrived up to its capacity (up to what the line ordered
 * when the capacity is not known: nothing else bounds it); what the slot cannot take goes to the depot, but only up
 * to what the line ordered. Units beyond the order are booked nowhere (`notBooked`): a person counts them into the
 * depot with a reason once they are seen.
 */
export function splitReceipt(stock: number, delivered: number, capacity: number | null, ordered: number): { stockAfter: number; toDepot: number; notBooked: number } {
  const base = Math.max(0, stock);
  const arrived = Math.max(0, delivered);
  const orderedEach = Math.max(0, ordered);
  const room = capacity === null ? orderedEach : Math.max(0, capacity - base);
  const intoSlot = Math.min(arrived, room);
  const toDepot = Math.min(arrived - intoSlot, Math.max(0, orderedEach - intoSlot));
  return { stockAfter: base + intoSlot, toDepot, notBooked: arrived - intoSlot - toDepot };
}

/** Why a fill of `quantity` into a slot cannot be done: the slot cannot take it, or the depot does not hold it. */
export function fillRefusal(
  f: { quantity: number; stock: number; capacity: number | null; depotHas: number },
): { code: 'invalid' | 'depot_insufficient'; text: string } | null {
  // The slot's room first: more than a slot can hold is a wrong number whatever the depot holds.
  if (f.capacity !== null && Math.max(0, f.stock) + f.quantity > f.capacity) {
    return { code: 'invalid', text: `the slot holds ${Math.max(0, f.stock)} of ${f.capacity}: it takes at most ${Math.max(0, f.capacity - Math.max(0, f.stock))} more` };
  }
  if (f.quantity > f.depotHas) return { code: 'depot_insufficient', text: `the depot holds ${f.depotHas} unit(s) of the good, ${f.quantity} asked` };
  return null;
}

/** A stock count: the counted quantity replaces what was held; the difference is what the event records. */
export function countDelta(held: number, counted: number): number {
  return counted - held;
}

/** `GET /depot` pages (issue 37): at most this many goods a page, the default too (as `GET /orders`). */
export const DEPOT_PAGE_MAX = 100;

/** Keyset cursor over the sku id (goods are listed by sku id). */
export function encodeDepotCursor(lastSkuId: string): string {
  return Buffer.from(JSON.stringify(['depot', lastSkuId])).toString('base64url');
}

/** The sku id a cursor this service issued continues after; null for anything else (a forged cursor reaches no SQL). */
export function decodeDepotCursor(cursor: string): string | null {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(v) || v.length !== 2 || v[0] !== 'depot' || typeof v[1] !== 'string') return null;
    return v[1].length >= 1 && v[1].length <= 300 ? v[1] : null;
  } catch {
    return null;
  }
}
