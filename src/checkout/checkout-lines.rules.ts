/**
 * How an update's lines change a session's lines (pure). Lines are matched by item id and unit; quantity 0 removes:
 * with no `quantity_unit` every line of that item whatever its unit (issue 29: "0 without a unit" used to match only
 * an EA line and answer success with nothing changed), with one only that unit's line. A removal that matches no line
 * is refused, so an agent never reads success for a change that did not happen.
 */
export interface MergedLine<U extends string = string> {
  item_id: string;
  quantity: number;
  unit: U;
}

export interface LineChange<U extends string = string> {
  itemId: string;
  quantity: number;
  /** The unit the change names, or null when it names none (`defaultUnit` for an added line). */
  unit: U | null;
}

export type MergeResult<U extends string = string> = { ok: true; lines: MergedLine<U>[] } | { ok: false; index: number; text: string };

export function mergeLineChanges<U extends string>(current: readonly MergedLine<U>[], changes: readonly LineChange<U>[], defaultUnit: U): MergeResult<U> {
  let out = current.map((l) => ({ ...l }));
  for (const [i, c] of changes.entries()) {
    if (c.quantity === 0) {
      const kept = out.filter((l) => !(l.item_id === c.itemId && (c.unit === null || l.unit === c.unit)));
      if (kept.length === out.length) {
        const held = out.filter((l) => l.item_id === c.itemId).map((l) => l.unit);
        const text = held.length
          ? `${c.itemId} is in the session in unit ${held.join(', ')}, not ${c.unit}: send quantity 0 without quantity_unit (or with that unit) to remove it`
          : `${c.itemId} is not in the session: there is no line to remove`;
        return { ok: false, index: i, text };
      }
      out = kept;
      continue;
    }
    const unit = c.unit ?? defaultUnit;
    const at = out.findIndex((l) => l.item_id === c.itemId && l.unit === unit);
    if (at >= 0) out[at].quantity = c.quantity;
    else out.push({ item_id: c.itemId, quantity: c.quantity, unit });
  }
  return { ok: true, lines: out };
}
