/**
 * Goods a supplier refused as unavailable (pure; docs/adr/0034-supply-resolution-and-aggregation.md). A refusal marks the supplier's good;
 * the mark holds until a catalog read made AFTER the refusal offers the good again (listed, stock above 0). While it
 * holds, resolution passes over that supplier's offer: the next candidate supplier is chosen, or nobody (`not_carried`).
 */

/** Whether a mark made at `markedAt` still holds, given the supplier's catalog as read (null: not readable). */
export function markHolds(markedAt: Date, catalog: { fetchedAt: number; product: { stock: number } | undefined } | null): boolean {
  if (!catalog || catalog.fetchedAt <= markedAt.getTime()) return true;
  return !(catalog.product !== undefined && catalog.product.stock > 0);
}

/** The item ids of a checkout session's lines that carry an `item_unavailable` message (`$.line_items[i]…`). */
export function refusedItemIds(messages: readonly { code?: string; path?: string }[], lineItems: readonly { item_id: string }[]): string[] {
  const out = new Set<string>();
  for (const m of messages) {
    if (m.code !== 'item_unavailable' || typeof m.path !== 'string') continue;
    const at = /^\$\.line_items\[(\d+)\]/.exec(m.path);
    const line = at ? lineItems[Number(at[1])] : undefined;
    if (line) out.add(line.item_id);
  }
  return [...out].sort();
}
