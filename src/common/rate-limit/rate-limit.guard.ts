import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { DomainError } from '../errors/errors';
import { MCP_PATH } from '../mcp-paths';
import { isInProcess } from '../in-process';
import { costOf, MCP_MAX_BATCH, UNLIMITED_PATHS } from './rate-limit.rules';
import { countRequest, wasCounted } from './rate-limit.middleware';
import { RateLimited, RateLimiter } from './rate-limiter.service';

/**
 * The first guard (before authentication): every request was counted once on arrival by `limitEveryRequest`
 * (rate-limit.middleware.ts, issue 37); a JSON-RPC batch costs one unit per message, so its further messages are
 * added here, once the body is parsed. The health probes are never counted; an MCP tool call's in-process REST
 * request is not counted again. An MCP batch over MCP_MAX_BATCH messages is refused whether the limit is on or off.
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
    // The request was counted once on arrival (limitEveryRequest); here only a batch's further messages are added.
    // A request that reached the pipeline without that step (no such transport today) is counted whole.
    const counted = wasCounted(req);
    const cost = costOf(req.body, isMcp) - (counted ? 1 : 0);
    if (cost <= 0) return true;
    try {
      await countRequest(this.limiter, req, this.config, cost);
    } catch (e) {
      if (e instanceof RateLimited) ctx.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(e.retryAfterSeconds));
      throw e;
    }
    return true;
  }
}
