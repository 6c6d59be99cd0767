/**
 * GET /orders parameters (spec "Orders"): trade status filter, time windows and the keyset cursor. Pure.
 */
import { stringProblem } from '../common/edge/edge.rules';
import { parseRfc3339 } from '../common/time';
import { TRADE_STATES, TradeStatus } from '../sales/sale-order.rules';

export const ORDERS_DEFAULT_LIMIT = 100;
export const ORDERS_MAX_LIMIT = 100;
export const TRADE_STATUS_FILTERS = ['settled', 'all', ...TRADE_STATES.filter((s) => s !== 'settled')] as const;

/** `all` → no filter; one of the six → that state. Default `settled` (only settled orders are sales). */
export function tradeStatusFilter(v: string | undefined): TradeStatus | null {
  if (v === undefined || v === 'settled') return 'settled';
  if (v === 'all') return null;
  return v as TradeStatus;
}

/**
 * Keyset position. Without `updated_from`/`updated_to` orders are listed newest first by (taken_at, id);
 * with them, oldest change first by (updated_at, id), so a poller resumes where it stopped.
 * `t` is the UTC timestamp with microseconds as PostgreSQL printed it (exact, unlike a JS Date).
 */
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export type OrderSortKey = 'taken' | 'updated';
export interface OrderCursor {
  k: OrderSortKey;
  t: string;
  id: string;
}

export function encodeCursor(c: OrderCursor): string {
  return Buffer.from(JSON.stringify([c.k, c.t, c.id]), 'utf8').toString('base64url');
}

export function decodeCursor(s: string): OrderCursor | null {
  if (!/^[A-Za-z0-9_-]{1,1000}$/.test(s)) return null;
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(v) || v.length !== 3) return null;
    const [k, t, id] = v as unknown[];
    if ((k !== 'taken' && k !== 'updated') || typeof t !== 'string' || typeof id !== 'string') return null;
    // A forged cursor never reaches PostgreSQL: a real date in range, an id that is valid text.
    if (!CURSOR_TIME.test(t) || !parseRfc3339(t) || stringProblem(id, 300)) return null;
    return { k, t, id };
  } catch {
    return null;
  }
}
