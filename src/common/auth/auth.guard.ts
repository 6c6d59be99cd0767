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

  /** Routes are fixed at boot: each controller method's @Public() answer is looked up once (issue 13). */
  private readonly publicRoutes = new WeakMap<object, WeakMap<object, boolean>>();

  private isPublic(ctx: ExecutionContext): boolean {
    const handler = ctx.getHandler();
    const cls = ctx.getClass();
    let byHandler = this.publicRoutes.get(cls);
    if (!byHandler) this.publicRoutes.set(cls, (byHandler = new WeakMap()));
    let known = byHandler.get(handler);
    if (known === undefined) {
      known = !!this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, cls]);
      byHandler.set(handler, known);
    }
    return known;
  }

  canActivate(ctx: ExecutionContext): boolean {
    if (ctx.getType() !== 'http') return true;
    if (this.isPublic(ctx)) return true;
    if (!this.config.authToken) {
      throw new DomainError('auth_not_configured', 'the deployment has no operator token configured (SERVICE_AUTH_TOKEN)', {
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
