/**
 * The price floor of a live price change (issue 29): a price below what the good costs to buy, or a cut of more
 * than 90%, is almost always a unit mistake (4 sent meaning ¥4, which is 4 fen). Pure.
 */

/** A cut deeper than this share of the current price needs `allow_deep_cut`. */
export const DEEP_CUT_PERCENT = 90;

export interface FloorCheck {
  currentFen: number;
  newFen: number;
  /** The purchase cost of one unit when the supply resolution knows it (the chosen supplier's each price). */
  costFen: number | null;
  allowBelowCost: boolean;
  allowDeepCut: boolean;
}

export type FloorRefusal = { field: 'allow_below_cost' | 'allow_deep_cut'; text: string } | null;

const yuan = (fen: number) => `¥${(fen / 100).toFixed(2)}`;

/** Whether a cut is deeper than DEEP_CUT_PERCENT, in integers (new < current × 10%). */
export function isDeepCut(currentFen: number, newFen: number): boolean {
  return newFen * 100 < currentFen * (100 - DEEP_CUT_PERCENT);
}

/** Why the change needs an explicit go-ahead, or null when it needs none. Below cost is said first: it costs money per sale. */
export function floorRefusal(c: FloorCheck): FloorRefusal {
  const move = `${c.currentFen} -> ${c.newFen} fen (${yuan(c.currentFen)} -> ${yuan(c.newFen)}; amounts are integer fen, 350 = ¥3.50)`;
  if (c.costFen !== null && c.newFen < c.costFen && !c.allowBelowCost) {
    return { field: 'allow_below_cost', text: `${move} is below the purchase cost of ${c.costFen} fen (${yuan(c.costFen)}); send allow_below_cost: true on this line if that is meant` };
  }
  if (isDeepCut(c.currentFen, c.newFen) && !c.allowDeepCut) {
    return { field: 'allow_deep_cut', text: `${move} cuts the price by more than ${DEEP_CUT_PERCENT}%; send allow_deep_cut: true on this line if that is meant` };
  }
  return null;
}
