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

export interface RateLimitStore {
  /** Adds `cost` to the bucket's current window and answers the new count. */
  hit(key: string, cost: number, windowMs: number): Promise<WindowCount>;
}

/** One process (the embedded database serves one instance only; its folder is locked). */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, WindowCount>();

  hit(key: string, cost: number, windowMs: number): Promise<WindowCount> {
    const now = Date.now();
    if (this.windows.size > 50_000) for (const [k, w] of this.windows) if (w.resetAtMs <= now) this.windows.delete(k);
    let w = this.windows.get(key);
    if (!w || w.resetAtMs <= now) this.windows.set(key, (w = { count: 0, resetAtMs: now + windowMs }));
    w.count += cost;
    return Promise.resolve({ ...w });
  }
}

/**
 * Shared by every instance on one PostgreSQL (issue 26): one upsert per request on the database clock, so N instances
 * allow the limit once, not N times. Past windows are deleted now and then.
 */
export class PgRateLimitStore implements RateLimitStore {
  private readonly logger = new Logger('RateLimit');
  private lastPrune = 0;

  constructor(private readonly ds: DataSource) {}

  async hit(key: string, cost: number, windowMs: number): Promise<WindowCount> {
    // One statement: a window past its end restarts at this request (database clock, ms), else the hits add up.
    const rows = (await this.ds.query(
      `INSERT INTO rate_limit_windows AS w (bucket, window_start, hits)
       VALUES ($1, (extract(epoch FROM clock_timestamp()) * 1000)::bigint, $3)
       ON CONFLICT (bucket) DO UPDATE SET
         window_start = CASE WHEN w.window_start + $2 <= EXCLUDED.window_start THEN EXCLUDED.window_start ELSE w.window_start END,
         hits = CASE WHEN w.window_start + $2 <= EXCLUDED.window_start THEN EXCLUDED.hits ELSE w.hits + EXCLUDED.hits END
       RETURNING w.hits, w.window_start`,
      [key, windowMs, cost],
    )) as { hits: number; window_start: string }[];
    const start = Number(rows[0].window_start);
    if (start - this.lastPrune >= windowMs) {
      this.lastPrune = start;
      this.ds
        .query(`DELETE FROM rate_limit_windows WHERE window_start < $1`, [start - windowMs])
        .catch((e: Error) => this.logger.warn(`old rate-limit windows not pruned: ${e.message}`));
    }
    return { count: Number(rows[0].hits), resetAtMs: start + windowMs };
  }
}
