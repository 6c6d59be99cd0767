/** The fleet overview's arithmetic (issue 19): no Nest, no SQL. */
import { startOfDayPlus8 } from '../common/time';

export const SALES_WEEK_DAYS = 7;

/** Today and the 7 calendar days ending today, on the +08:00 calendar the budgets use. */
export function salesWindows(now: Date): { todayFrom: Date; weekFrom: Date } {
  const todayFrom = startOfDayPlus8(now);
  return { todayFrom, weekFrom: new Date(todayFrom.getTime() - (SALES_WEEK_DAYS - 1) * 86_400_000) };
}

/** Stock over capacity in percent (one decimal), over the slots whose capacity the platform gives; null when none. */
export function fillPercent(stockWithCapacity: number, capacity: number): number | null {
  if (capacity <= 0) return null;
  return Math.round((Math.min(stockWithCapacity, capacity) / capacity) * 1000) / 10;
}
