/** Pure rules of purchase orders: which are still open, and their list cursors (order.view.ts renders them). */
import { parseRfc3339 } from '../common/time';

export function isOpen(state: string | null): boolean {
  return state !== 'arrived' && state !== 'cancelled';
}

/** Keyset cursor over (completed_at, id). */
export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');
}

/** A forged cursor never reaches PostgreSQL: the id is a session id and the time one PostgreSQL can hold. */
export function decodeCursor(c: string): { completedAt: Date; id: string } | null {
  try {
    const [at, id] = JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as [string, string];
    if (typeof at !== 'string' || typeof id !== 'string' || !SESSION_ID.test(id)) return null;
    const d = parseRfc3339(at);
    return d ? { completedAt: d, id } : null;
  } catch {
    return null;
  }
}

const SESSION_ID = /^[A-Za-z0-9._-]{1,200}$/;
