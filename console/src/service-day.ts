/**
 * "Today" is the service's +08:00 calendar day on the service's own clock (a staging service's clock can run ahead
 * of the machine's), never the browser's clock or UTC. Every screen learns it from what the service answers (the
 * route's `day`, a `read_at` or `computed_at`) and says times relative to it; the header shows it.
 */
import { useEffect, useState } from 'preact/hooks';
import { plus8Day, when } from './format';

type Known = { day: string; nowMs: number };
let known: Known | null = null;
const listeners = new Set<(k: Known) => void>();

/** Records what the service said "now" is (an instant it answered, or the day it reported). */
export function noteServiceTime(iso: string | null | undefined, day?: string): void {
  if (!iso) return;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return;
  if (known && known.nowMs > ms) return; // an older answer arriving late never moves the day back
  known = { day: day ?? plus8Day(ms), nowMs: ms };
  const k = known;
  listeners.forEach((l) => l(k));
}

/** The service's day (YYYY-MM-DD) and "now" (ms on the service clock), once any answer told it; null before. */
export function useServiceDay(): Known | null {
  const [k, setK] = useState(known);
  useEffect(() => {
    listeners.add(setK);
    if (known !== k) setK(known);
    return () => void listeners.delete(setK);
  }, []);
  return k;
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** An instant as "today 09:12", "yesterday 17:40" or "2026-11-25 21:49", today being the service's day. */
export function dayWhen(iso: string | null | undefined, today: string | null | undefined): string {
  const w = when(iso);
  if (!iso || !today || w.length < 16) return w;
  const day = w.slice(0, 10);
  if (day === today) return `today ${w.slice(11)}`;
  if (day === addDays(today, -1)) return `yesterday ${w.slice(11)}`;
  return w;
}

/** A calendar day in words: 2026-11-28 → "Saturday 28 November"; "today"/"tomorrow" relative to the service's day. */
export function dayWords(day: string | null | undefined, today?: string | null): string {
  if (!day) return '—';
  if (today && day === today) return 'today';
  if (today && day === addDays(today, 1)) return 'tomorrow';
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return d.toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
}
