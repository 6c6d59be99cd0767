import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Request } from 'express';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { requestAuth } from '../auth/credential';
import { DomainError } from '../errors';
import { isInProcess } from '../in-process';

/**
 * Rate limit per credential (decisions.md, issue 17): one bucket per credential across all routes (`operator`,
 * `approver`), one per client address for requests without a valid credential (public routes, wrong tokens). The
 * 429 is the envelope with `rate_limited`; `Retry-After` (seconds) is set by the throttler. Off with
 * SERVICE_RATE_LIMIT=off (the tests' default). Counted per instance.
 */
@Injectable()
export class CredentialThrottlerGuard extends ThrottlerGuard {
  @Inject(APP_CONFIG) private readonly config: AppConfig;

  /** Off, not HTTP, or the inner request of an MCP tool call (its outer request was counted). */
  protected override shouldSkip(ctx: ExecutionContext): Promise<boolean> {
    if (this.config.rateLimit === null || ctx.getType() !== 'http') return Promise.resolve(true);
    return Promise.resolve(isInProcess(ctx.switchToHttp().getRequest<object>()));
  }

  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    const r = req as unknown as Request;
    const auth = requestAuth(r, this.config);
    return Promise.resolve(auth.ok ? `credential:${auth.credential}` : `address:${r.ip ?? 'unknown'}`);
  }

  protected override generateKey(_ctx: ExecutionContext, tracker: string, name: string): string {
    return `${name}:${tracker}`;
  }

  protected override throwThrottlingException(_ctx: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const seconds = Math.max(1, Math.ceil(detail.timeToBlockExpire));
    throw new DomainError('rate_limited', `more than ${detail.limit} requests in ${detail.ttl / 1000} s for this credential; retry after ${seconds} s`);
  }
}
