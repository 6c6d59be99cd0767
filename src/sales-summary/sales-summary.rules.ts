/** The daily sales range (issue 30): +08:00 calendar days, never past today. Pure. */
const DAY_MS = 86_400_000;
const OFFSET_MS = 8 * 3_600_000;
export const DEFAULT_DAYS = 14;
export const MAX_DAYS = 366;

/** The +08:00 calendar day of an instant. */
export function plus8Day(at: Date): string {
  return new Date(at.getTime() + OFFSET_MS).toISOString().slice(0, 10);
}

/** 00:00 +08:00 of a calendar day, as an instant. */
export function dayStart(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - OFFSET_MS);
}

export type DayRange = { ok: true; days: string[]; from: Date; to: Date } | { ok: false; path: string; text: string };

/**
 * The days from `from` to `to` (inclusive), `to` defaulting to today and capped at today (no future day is charted),
 * `from` defaulting to `DEFAULT_DAYS` days ending at `to`.
 */
export function dayRange(q: { from?: string; to?: string }, now: Date): DayRange {
  const today = plus8Day(now);
  let to = q.to ?? today;
  if (to > today) to = today;
  const from = q.from ?? plus8Day(new Date(dayStart(to).getTime() - (DEFAULT_DAYS - 1) * DAY_MS));
  if (from > to) return { ok: false, path: '$.from', text: q.from && q.from > today ? 'the first day is after today: no sales yet' : 'the first day is after the last one' };
  const n = Math.round((dayStart(to).getTime() - dayStart(from).getTime()) / DAY_MS) + 1;
  if (n > MAX_DAYS) return { ok: false, path: '$.from', text: `at most ${MAX_DAYS} days at a time` };
  const days = Array.from({ length: n }, (_, i) => plus8Day(new Date(dayStart(from).getTime() + i * DAY_MS)));
  return { ok: true, days, from: dayStart(from), to: new Date(dayStart(to).getTime() + DAY_MS) };
}

/** Totals per day over the range, 0 where nothing sold. */
export function fillDays(days: string[], rows: { day: string; orders: number; fen: number }[]): { day: string; orders: number; fen: number }[] {
  const by = new Map(rows.map((r) => [r.day, r]));
  return days.map((day) => ({ day, orders: by.get(day)?.orders ?? 0, fen: by.get(day)?.fen ?? 0 }));
}
