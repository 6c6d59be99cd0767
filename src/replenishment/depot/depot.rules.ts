/**
 * The depot's rules (pure; docs/replenishment-policy.md section 8): what a delivery leaves beyond a slot's capacity
 * goes to the depot, the plan serves slots from the depot before buying, a fill moves units depot → slot, and a
 * stock count sets what the depot holds.
 */

/** A delivery into a slot: what the slot takes (up to its capacity when known) and what goes to the depot. */
export function splitDelivery(stock: number, delivered: number, capacity: number | null): { stockAfter: number; toDepot: number } {
  const base = Math.max(0, stock);
  const raised = base + Math.max(0, delivered);
  if (capacity === null) return { stockAfter: raised, toDepot: 0 };
  const after = Math.max(base, Math.min(capacity, raised));
  return { stockAfter: after, toDepot: raised - after };
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
