import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { DomainError, Errors } from '../errors';
import { IS_PUBLIC } from './public.decorator';
import { presentedToken, tokenMatches } from './token';

/** Operator authentication for every route but the @Public ones; fails closed without a configured token. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  canActivate(ctx: ExecutionContext): boolean {
    if (ctx.getType() !== 'http') return true;
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [ctx.getHandler(), ctx.getClass()]);
    if (isPublic) return true;
    if (!this.config.authToken) {
      throw new DomainError(503, 'auth_not_configured', 'the deployment has no operator token configured (SERVICE_AUTH_TOKEN)', {
        severity: 'unrecoverable',
      });
    }
    const req = ctx.switchToHttp().getRequest<Request>();
    if (!tokenMatches(presentedToken(req.headers, this.config.serviceName), this.config.authToken)) {
      throw Errors.unauthorized();
    }
    return true;
  }
}
