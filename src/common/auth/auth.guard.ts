import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { DomainError, Errors } from '../errors/errors';
import { agentScopeRefusal, AGENT_NO_OWNER_POWERS } from './agent-scope.rules';
import { requestAuth } from './credential';
import { isInProcess } from '../in-process';
import { IS_PUBLIC } from './public.decorator';
import { ACCEPTS_CHAT_CREDENTIAL, ApproverRule, CHAT_SCOPE, REQUIRES_APPROVER } from './requires-approver.decorator';

interface RouteAuth {
  isPublic: boolean;
  approverRule: ApproverRule | null;
  acceptsChat: boolean;
}

/**
 * Authentication for every route but the @Public ones (fails closed without a configured token) and the approver
 * rule of @RequiresApprover routes. The credential itself is read from the headers once (`requestAuth`), by the
 * middleware ahead of the body parser, so an unauthenticated body is never parsed.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Routes are fixed at boot: each controller method's metadata is looked up once (issue 13). */
  private readonly routes = new WeakMap<object, WeakMap<object, RouteAuth>>();

  private route(ctx: ExecutionContext): RouteAuth {
    const handler = ctx.getHandler();
    const cls = ctx.getClass();
    let byHandler = this.routes.get(cls);
    if (!byHandler) this.routes.set(cls, (byHandler = new WeakMap()));
    let known = byHandler.get(handler);
    if (known === undefined) {
      known = {
        isPublic: !!this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, cls]),
        approverRule: this.reflector.getAllAndOverride<ApproverRule | undefined>(REQUIRES_APPROVER, [handler, cls]) ?? null,
        acceptsChat: !!this.reflector.getAllAndOverride<boolean>(ACCEPTS_CHAT_CREDENTIAL, [handler, cls]),
      };
      byHandler.set(handler, known);
    }
    return known;
  }

  canActivate(ctx: ExecutionContext): boolean {
    if (ctx.getType() !== 'http') return true;
    const route = this.route(ctx);
    if (route.isPublic) return true;
    const req = ctx.switchToHttp().getRequest<Request>();
    // Answers of authenticated routes are never stored by a cache, refusals included.
    ctx.switchToHttp().getResponse<Response>().setHeader('Cache-Control', 'no-store');
    const auth = requestAuth(req, this.config);
    if (!auth.ok) {
      if (auth.refusal === 'not_configured') throw new DomainError('auth_not_configured', auth.reason, { severity: 'unrecoverable' });
      if (auth.refusal === 'forbidden_origin') throw Errors.forbidden(auth.reason);
      throw Errors.unauthorized();
    }
    if (auth.credential === 'chat' && !route.acceptsChat) throw Errors.forbidden(CHAT_SCOPE);
    if (auth.agent) {
      // Issue 36: the grant's scope, and never the owner's powers (whether or not SERVICE_APPROVER_TOKEN is set).
      if (route.approverRule && route.approverRule(req.body)) throw Errors.forbidden(AGENT_NO_OWNER_POWERS);
      const refusal = agentScopeRefusal(auth.agent.scope, req.method, req.path, operationWords(req));
      if (refusal) throw Errors.forbidden(refusal);
    }
    if (route.approverRule && this.config.approverToken !== null && auth.credential !== 'approver' && route.approverRule(req.body)) {
      throw Errors.forbidden('this change needs the approver credential (SERVICE_APPROVER_TOKEN); the operator token may not make it');
    }
    return true;
  }
}

/** The operation in the caller's terms: the MCP tool a tool call runs (it names itself), else the method and path. */
function operationWords(req: Request): string {
  const tool = req.headers['x-mcp-tool'];
  return typeof tool === 'string' && isInProcess(req) ? `the tool ${tool}` : `${req.method} ${req.path}`;
}
