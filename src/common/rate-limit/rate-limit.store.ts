import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/**
 * The count of a bucket in its current window, and when the window ends (ms since the epoch). A bucket's window starts
 * with its first request and lasts the configured time; the next request after it starts a new one.
 */
export interface WindowCount {
  count: number;
  resetAtMs: number;
}

/** A hit's own count, and the current count of the bucket it watched (null: no window open there). */
export interface HitCount extends WindowCount {
  watched: WindowCount | null;
}

export interface RateLimitStore {
  /**
   * Adds `cost` to the bucket's current window and answers the new count; with `watch`, also that bucket's current
   * count (counting nothing there), read in the same step so every instance sees one shared answer (issue 37).
   */
  hit(key: string, cost: number, windowMs: number, watch?: string): Promise<HitCount>;
  /** The bucket's current window, counting nothing; null when none is open. */
  peek(key: string, windowMs: number): Promise<WindowCount | null>;
}

/** One process (the embedded database serves one instance only; its folder is locked). */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, WindowCount>();

  hit(key: string, cost: number, windowMs: number, watch?: string): Promise<HitCount> {
    const now = Date.now();
    if (this.windows.size > 50_000) for (const [k, w] of this.windows) if (w.resetAtMs <= now) this.windows.delete(k);
    let w = this.windows.get(key);
    if (!w || w.resetAtMs <= now) this.windows.set(key, (w = { count: 0, resetAtMs: now + windowMs }));
    w.count += cost;
    return Promise.resolve({ ...w, watched: watch === undefined ? null : this.current(watch, now) });
  }

  peek(key: string): Promise<WindowCount | null> {
    return Promise.resolve(this.current(key, Date.now()));
  }

  private current(key: string, now: number): WindowCount | null {
    const w = this.windows.get(key);
    return w && w.resetAtMs > now ? { ...w } : null;
  }
}

/** The database clock in ms, the one clock every instance reads windows by. */
const NOW_MS = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

/**
 * Shared by every instance on one PostgreSQL (issue 26): one upsert per request on the database clock, so N instances
 * allow the limit once, not N times; the watched bucket (a client address) is read by the same statement (issue 37).
 * Past windows are deleted now and then.
 */
export class PgRateLimitStore implements RateLimitStore {
  private readonly logger = new Logger('RateLimit');
  private lastPrune = 0;

  constructor(private readonly ds: DataSource) {}

  async hit(key: string, cost: number, windowMs: number, watch?: string): Promise<HitCount> {
    // One statement: a window past its end restarts at this request (database clock, ms), else the hits add up; the
    // watched bucket is another row, so the upsert's own change does not matter to its read.
    const rows = (await this.ds.query(
      `WITH hit AS (
         INSERT INTO rate_limit_windows AS w (bucket, window_start, hits)
         VALUES ($1, ${NOW_MS}, $3)
         ON CONFLICT (bucket) DO UPDATE SET
           window_start = CASE WHEN w.window_start + $2 <= EXCLUDED.window_start THEN EXCLUDED.window_start ELSE w.window_start END,
           hits = CASE WHEN w.window_start + $2 <= EXCLUDED.window_start THEN EXCLUDED.hits ELSE w.hits + EXCLUDED.hits END
         RETURNING w.hits, w.window_start
       )
       SELECT hit.hits, hit.window_start, p.hits AS watched_hits, p.window_start AS watched_start
       FROM hit LEFT JOIN rate_limit_windows p ON p.bucket = $4::text AND p.window_start + $2 > ${NOW_MS}`,
      [key, windowMs, cost, watch ?? null],
    )) as { hits: number; window_start: string; watched_hits: number | null; watched_start: string | null }[];
    const start = Number(rows[0].window_start);
    if (start - this.lastPrune >= windowMs) {
      this.lastPrune = start;
      this.ds
        .query(`DELETE FROM rate_limit_windows WHERE window_start < $1`, [start - windowMs])
        .catch((e: Error) => this.logger.warn(`old rate-limit windows not pruned: ${e.message}`));
    }
    const r = rows[0];
    const watched = r.watched_start === null ? null : { count: Number(r.watched_hits), resetAtMs: Number(r.watched_start) + windowMs };
    return { count: Number(r.hits), resetAtMs: start + windowMs, watched };
  }

  async peek(key: string, windowMs: number): Promise<WindowCount | null> {
    const rows = (await this.ds.query(`SELECT hits, window_start FROM rate_limit_windows WHERE bucket = $1 AND window_start + $2 > ${NOW_MS}`, [key, windowMs])) as {
      hits: number;
      window_start: string;
    }[];
    return rows.length ? { count: Number(rows[0].hits), resetAtMs: Number(rows[0].window_start) + windowMs } : null;
  }
}
