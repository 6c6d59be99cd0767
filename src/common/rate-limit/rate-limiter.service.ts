import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { DomainError } from '../errors';
import { Bucket } from './rate-limit.rules';
import { MemoryRateLimitStore, PgRateLimitStore, RateLimitStore } from './rate-limit.store';

/** A request over its bucket's limit: the 429 `rate_limited` envelope, with how long to wait. */
export class RateLimited extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    limit: number,
    windowMs: number,
  ) {
    super('rate_limited', `more than ${limit} requests in ${windowMs / 1000} s from this caller; retry after ${retryAfterSeconds} s`);
  }
}

/**
 * Counts requests per bucket in windows that start with its first request (decisions.md, issue 26): in PostgreSQL when the deployment has a
 * server database (shared by every instance), in memory on the embedded one (one instance). Off with
 * SERVICE_RATE_LIMIT=off. A store failure lets the request through (logged): the limiter never takes the service down.
 */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly store: RateLimitStore;
  /** Buckets seen over their limit by this instance, until their window ends: a right token guessed from such an address is refused too. */
  private readonly blocked = new Map<string, number>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig, ds: DataSource) {
    this.store = config.databaseUrl ? new PgRateLimitStore(ds) : new MemoryRateLimitStore();
  }

  get enabled(): boolean {
    return this.config.rateLimit !== null;
  }

  /** Counts `cost` units against the bucket; throws `RateLimited` past its limit. */
  async hit(bucket: Bucket, cost = 1): Promise<void> {
    const rl = this.config.rateLimit;
    if (!rl) return;
    const limit = bucket.limit === 'sign_in' ? rl.signInLimit : rl.limit;
    let counted;
    try {
      counted = await this.store.hit(bucket.key, cost, rl.windowMs);
    } catch (e) {
      this.logger.warn(`rate limit not counted: ${(e as Error).message}`);
      return;
    }
    if (counted.count > limit) {
      if (this.blocked.size > 10_000) this.blocked.clear();
      this.blocked.set(bucket.key, counted.resetAtMs);
      throw new RateLimited(Math.max(1, Math.ceil((counted.resetAtMs - Date.now()) / 1000)), limit, rl.windowMs);
    }
  }

  /** Throws `RateLimited` while the bucket is over its limit (as last counted here); counts nothing. */
  assertOpen(bucket: Bucket): void {
    const rl = this.config.rateLimit;
    const until = this.blocked.get(bucket.key);
    if (!rl || until === undefined) return;
    if (until <= Date.now()) {
      this.blocked.delete(bucket.key);
      return;
    }
    throw new RateLimited(Math.max(1, Math.ceil((until - Date.now()) / 1000)), bucket.limit === 'sign_in' ? rl.signInLimit : rl.limit, rl.windowMs);
  }
}
