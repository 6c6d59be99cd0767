import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { SIGN_IN_PATH } from '../auth/auth.middleware';
import { requestAuth } from '../auth/credential';
import { DomainError } from '../errors';
import { MCP_PATH } from '../mcp-paths';
import { isInProcess } from '../in-process';
import { bucketOf, costOf, MCP_MAX_BATCH, UNLIMITED_PATHS } from './rate-limit.rules';
import { RateLimited, RateLimiter } from './rate-limiter.service';

/**
 * The first guard (before authentication, so a request that fails it is counted against its client address too):
 * picks the bucket (rate-limit.rules.ts) and counts the request, a JSON-RPC batch once per message. The health probes
 * are never counted; an MCP tool call's in-process REST request is not counted again. An MCP batch over
 * MCP_MAX_BATCH messages is refused whether the limit is on or off.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest<Request>();
    if (isInProcess(req) || UNLIMITED_PATHS.has(req.path)) return true;
    const isMcp = req.method === 'POST' && req.path === MCP_PATH;
    if (isMcp && Array.isArray(req.body) && req.body.length > MCP_MAX_BATCH) {
      throw new DomainError('request_too_large', `a JSON-RPC batch carries at most ${MCP_MAX_BATCH} messages; send more requests`);
    }
    if (!this.limiter.enabled) return true;
    const auth = requestAuth(req, this.config);
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const bucket = bucketOf({ signIn: req.method === 'POST' && req.path === SIGN_IN_PATH, address, credential: auth.ok ? auth.credential : null, chatId: auth.ok ? auth.chatId : null, clientId: auth.ok ? auth.agent?.clientId : null });
    try {
      // An address over its limit (guessing tokens) is refused even when its next guess is right.
      if (auth.ok) this.limiter.assertOpen(bucketOf({ signIn: false, address, credential: null }));
      await this.limiter.hit(bucket, costOf(req.body, isMcp));
    } catch (e) {
      if (e instanceof RateLimited) ctx.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(e.retryAfterSeconds));
      throw e;
    }
    return true;
  }
}
