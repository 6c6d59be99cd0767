/**
 * Search pagination (docs/contract/: request `{cursor?, limit?}`, response `{has_next_page, cursor?,
 * total_count?}`). Pure. The cursor is opaque to clients: base64url of the next offset and a fingerprint of the
 * search it belongs to, so a cursor replayed on another search is refused instead of silently skipping results.
 */
import { createHash } from 'node:crypto';

/** Results of a search page when the request names no limit. */
export const SEARCH_DEFAULT_LIMIT = 20;

export interface PageRequest {
  offset: number;
  limit: number;
}

export function searchFingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 12);
}

export function encodeCursor(offset: number, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ o: offset, f: fingerprint })).toString('base64url');
}

/** The offset of a cursor, or null when it is not one of ours or belongs to another search. */
export function decodeCursor(cursor: string, fingerprint: string): number | null {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown; f?: unknown };
    if (typeof v.o !== 'number' || !Number.isSafeInteger(v.o) || v.o < 0 || v.f !== fingerprint) return null;
    return v.o;
  } catch {
    return null;
  }
}

export function pageOf<T>(total: number, req: PageRequest, fingerprint: string, take: (from: number, to: number) => T[]) {
  const from = Math.min(req.offset, total);
  const to = Math.min(from + req.limit, total);
  const items = take(from, to);
  const hasNext = to < total;
  return {
    items,
    pagination: hasNext
      ? { has_next_page: true, cursor: encodeCursor(to, fingerprint), total_count: total }
      : { has_next_page: false, total_count: total },
  };
}
