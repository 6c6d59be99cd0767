import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { Request } from 'express';
import { Caller, callerOf, Credential, credentialOf } from './credential';

export const REQUIRES_APPROVER = 'ucp:requiresApprover';
export const ACCEPTS_CHAT_CREDENTIAL = 'ucp:acceptsChatCredential';

/** Whether this request (its raw, unvalidated body) is one only the approver may make; fails closed on odd bodies. */
export type ApproverRule = (body: unknown) => boolean;

/**
 * Separation of duties (docs/adr/0039-owner-and-chat-credentials.md): when SERVICE_APPROVER_TOKEN is configured, the route (or, with a
 * rule, the requests the rule picks) needs the approver credential; the operator token gets 403 `forbidden`. Checked
 * by AuthGuard, the one place, so every transport dispatching through the Nest pipeline gets it.
 */
export const RequiresApprover = (rule: ApproverRule = () => true) => SetMetadata(REQUIRES_APPROVER, rule);

/** The credential the request was authenticated with (AuthGuard has run, so it is set on every non-public route). */
export const RequestCredential = createParamDecorator((_: unknown, ctx: ExecutionContext): Credential => {
  return credentialOf(ctx.switchToHttp().getRequest<Request>()) ?? 'operator';
});

/** The caller (credential and, for a chat credential, its chat) of an authenticated request. */
export const RequestCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => callerOf(ctx.switchToHttp().getRequest<Request>()));

/** The refusal of a chat credential outside its scope (every route but the approvals and the MCP endpoint). */
export const CHAT_SCOPE = 'a chat credential may only read and resolve approvals';

/**
 * A route a chat bot's credential (SERVICE_CHAT_TOKENS) may call: reading and resolving approvals, and the MCP
 * endpoint (whose tool calls are judged route by route). Everywhere else a chat credential is 403 `forbidden`.
 */
export const AcceptsChatCredential = () => applyDecorators(SetMetadata(ACCEPTS_CHAT_CREDENTIAL, true), ApiExtension(OPENAPI_CHAT, true));

/** OpenAPI marker of a route a chat credential opens; the document turns it into the `chat` security requirement (src/openapi.ts). */
export const OPENAPI_CHAT = 'x-chat-credential';
