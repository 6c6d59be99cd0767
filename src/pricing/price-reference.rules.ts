/**
 * The reference price of an item (docs/adr/0021-price-changes.md): the per-item price cap holds against it as well as against
 * the previous step, so a price cannot be walked up in steps that are each within the cap. Pure.
 */
import { GuardRules, overPriceCap } from '../guards/guard.rules';
import { startOfDayPlus8 } from '../common/time';

export type ReferenceSource = 'day_start' | 'approved';

export interface PriceReference {
  fen: number;
  source: ReferenceSource;
  /** Since when it holds: the start of the +08:00 day, or when an owner's approved price was made. */
  since: Date;
  /** Already kept for today; false: the first change of the day stores it. */
  stored: boolean;
}

export interface SlotPriceState {
  priceFen: number;
  referenceFen: number | null;
  referenceAt: Date | null;
  referenceSource: string | null;
}

/**
 * Today's (+08:00) reference: the price an owner approved today, else the item's price at the start of the day (the
 * price before the service's first change today; with no change yet today, the price now). A reference set on an
 * earlier day is over: each day starts from the price the item has then.
 */
export function referenceOf(slot: SlotPriceState, now: Date): PriceReference {
  const dayStart = startOfDayPlus8(now);
  if (slot.referenceFen !== null && slot.referenceAt !== null && slot.referenceAt.getTime() >= dayStart.getTime()) {
    const approved = slot.referenceSource === 'approved';
    return { fen: slot.referenceFen, source: approved ? 'approved' : 'day_start', since: approved ? slot.referenceAt : dayStart, stored: true };
  }
  return { fen: slot.priceFen, source: 'day_start', since: dayStart, stored: false };
}

/** Over the cap when the move from the current price OR the move from the reference price is over it. */
export function overCapOrReference(cap: GuardRules['priceCapPerItem'], m: { currentFen: number; referenceFen: number; newFen: number }): boolean {
  return overPriceCap(cap, { currentFen: m.currentFen, newFen: m.newFen }) || overPriceCap(cap, { currentFen: m.referenceFen, newFen: m.newFen });
}
