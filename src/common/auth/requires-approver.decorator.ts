import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import { Credential, credentialOf } from './credential';

export const REQUIRES_APPROVER = 'ucp:requiresApprover';

/** Whether this request (its raw, unvalidated body) is one only the approver may make; fails closed on odd bodies. */
export type ApproverRule = (body: unknown) => boolean;

/**
 * Separation of duties (decisions.md, issue 17): when SERVICE_APPROVER_TOKEN is configured, the route (or, with a
 * rule, the requests the rule picks) needs the approver credential; the operator token gets 403 `forbidden`. Checked
 * by AuthGuard, the one place, so every transport dispatching through the Nest pipeline gets it.
 */
export const RequiresApprover = (rule: ApproverRule = () => true) => SetMetadata(REQUIRES_APPROVER, rule);

/** The credential the request was authenticated with (AuthGuard has run, so it is set on every non-public route). */
export const RequestCredential = createParamDecorator((_: unknown, ctx: ExecutionContext): Credential => {
  return credentialOf(ctx.switchToHttp().getRequest<Request>()) ?? 'operator';
});
