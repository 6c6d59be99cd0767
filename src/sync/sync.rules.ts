/**
 * Timing and coordination rules of the machine syncs (spec "Ledger rules", the contract (docs/contract/)). Pure.
 */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** The ledger is read every 5 minutes over the last 3 hours, by update time, 100 records a page. */
export const LEDGER_PERIOD_MS = 5 * MINUTE_MS;
export const LEDGER_LOOKBACK_MS = 3 * HOUR_MS;
export const LEDGER_PAGE_SIZE = 100;
/** Inventory is read hourly per machine. */
export const INVENTORY_PERIOD_MS = HOUR_MS;
/** Machines read at once during a sync. */
export const SYNC_CONCURRENCY = 16;
/** How often each instance checks whether a tick is due (the tick itself is claimed in the database). */
export const SCHEDULER_CHECK_MS = 30_000;
/** A ledger copy older than this, or whose last sync failed, carries `stale_data`. */
export const STALE_AFTER_MS = 15 * MINUTE_MS;

export const SALES_WINDOW_MIN_DAYS = 21;
export const SALES_WINDOW_DEFAULT_DAYS = 30;
export const SALES_WINDOW_MAX_DAYS = 3660;

/** The tick number of `now` for a period: every instance computes the same number for the same period. */
export function tickOf(nowMs: number, periodMs: number): number {
  return Math.floor(nowMs / periodMs);
}

export function ledgerWindow(nowMs: number, lookbackMs: number): { fromMs: number; toMs: number } {
  return { fromMs: nowMs - lookbackMs, toMs: nowMs };
}

/** the contract (docs/contract/): stale when never synced, when the last sync failed, or when the last success is old. */
export function isStale(
  s: { lastSuccessAt: Date | null; lastFailureAt: Date | null } | null,
  nowMs: number,
  staleAfterMs = STALE_AFTER_MS,
): { stale: boolean; why: string } {
  if (!s || !s.lastSuccessAt) return { stale: true, why: 'the sales ledger has not been synced yet' };
  if (s.lastFailureAt && s.lastFailureAt.getTime() >= s.lastSuccessAt.getTime()) {
    return { stale: true, why: `the last ledger sync failed (at ${s.lastFailureAt.toISOString()})` };
  }
  const age = nowMs - s.lastSuccessAt.getTime();
  if (age > staleAfterMs) return { stale: true, why: `the last successful ledger sync is ${Math.round(age / MINUTE_MS)} minutes old` };
  return { stale: false, why: '' };
}

/** Runs `fn` over `items` with at most `limit` calls in flight; results in input order. Never rejects: each result says. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<({ ok: true; value: R } | { ok: false; error: unknown })[]> {
  const out = new Array<{ ok: true; value: R } | { ok: false; error: unknown }>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        out[i] = { ok: true, value: await fn(items[i], i) };
      } catch (error) {
        out[i] = { ok: false, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/** A sales window in days from a request: integer, at least 21, default 30. Returns an error text when invalid. */
export function salesWindowDays(v: unknown): { ok: true; days: number } | { ok: false; why: string } {
  if (v === undefined || v === null) return { ok: true, days: SALES_WINDOW_DEFAULT_DAYS };
  if (typeof v !== 'number' || !Number.isInteger(v)) return { ok: false, why: `sales_window_days must be an integer, got ${JSON.stringify(v)}` };
  if (v < SALES_WINDOW_MIN_DAYS) return { ok: false, why: `sales_window_days must be at least ${SALES_WINDOW_MIN_DAYS}, got ${v}` };
  if (v > SALES_WINDOW_MAX_DAYS) return { ok: false, why: `sales_window_days must be at most ${SALES_WINDOW_MAX_DAYS}, got ${v}` };
  return { ok: true, days: v };
}

/** Responses and events list at most this many data warnings; the rest are counted. */
export const MAX_WARNINGS = 100;

export function capped(list: string[]): string[] {
  if (list.length <= MAX_WARNINGS) return list;
  return [...list.slice(0, MAX_WARNINGS), `... and ${list.length - MAX_WARNINGS} more`];
}

/** The sync-state job names (one row per job and namespace). */
export const ledgerJob = (namespace: string) => `ledger:${namespace}`;
export const inventoryJob = (namespace: string) => `inventory:${namespace}`;
