import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { DomainError } from '../errors/errors';
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
 * Counts requests per bucket in windows that start with its first request (docs/adr/0043-rate-limit.md): in PostgreSQL when the deployment has a
 * server database (shared by every instance), in memory on the embedded one (one instance). Off with
 * SERVICE_RATE_LIMIT=off. A store failure lets the request through (logged): the limiter never takes the service down.
 * Whether an address is over its limit is read from the same store, so an address blocked on one instance is blocked
 * on all (issue 37).
 */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly store: RateLimitStore;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig, ds: DataSource) {
    this.store = config.databaseUrl ? new PgRateLimitStore(ds) : new MemoryRateLimitStore();
  }

  get enabled(): boolean {
    return this.config.rateLimit !== null;
  }

  /**
   * Counts `cost` units against the bucket; throws `RateLimited` past its limit, or while `unlessBlocked` (the
   * caller's address, for a request with a right credential) is over its own: a right token guessed from such an
   * address is refused too.
   */
  async hit(bucket: Bucket, cost = 1, unlessBlocked?: Bucket): Promise<void> {
    const rl = this.config.rateLimit;
    if (!rl) return;
    let counted;
    try {
      counted = await this.store.hit(bucket.key, cost, rl.windowMs, unlessBlocked?.key);
    } catch (e) {
      this.logger.warn(`rate limit not counted: ${(e as Error).message}`);
      return;
    }
    if (unlessBlocked && counted.watched && counted.watched.count > this.limitOf(unlessBlocked)) this.refuse(unlessBlocked, counted.watched.resetAtMs);
    if (counted.count > this.limitOf(bucket)) this.refuse(bucket, counted.resetAtMs);
  }

  /** Throws `RateLimited` while the bucket is over its limit (the shared count, every instance's requests); counts nothing. */
  async assertOpen(bucket: Bucket): Promise<void> {
    const rl = this.config.rateLimit;
    if (!rl) return;
    let w;
    try {
      w = await this.store.peek(bucket.key, rl.windowMs);
    } catch (e) {
      this.logger.warn(`rate limit not read: ${(e as Error).message}`);
      return;
    }
    if (w && w.count > this.limitOf(bucket)) this.refuse(bucket, w.resetAtMs);
  }

  private limitOf(bucket: Bucket): number {
    const rl = this.config.rateLimit!;
    return bucket.limit === 'sign_in' ? rl.signInLimit : rl.limit;
  }

  private refuse(bucket: Bucket, resetAtMs: number): never {
    const rl = this.config.rateLimit!;
    throw new RateLimited(Math.max(1, Math.ceil((resetAtMs - Date.now()) / 1000)), this.limitOf(bucket), rl.windowMs);
  }
}
