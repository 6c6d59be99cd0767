import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '../../config/app-config';
import { SIGN_IN_PATH } from '../auth/auth.middleware';
import { AgentTokenLookup, requestAuth, resolveAgentToken, resolveCookieSession, SessionLookup } from '../auth/credential';
import { errorBody } from '../envelope/envelope';
import { toHttp } from '../errors/exception.filter';
import { isInProcess } from '../in-process';
import { bucketOf, UNLIMITED_PATHS } from './rate-limit.rules';
import { RateLimited, RateLimiter } from './rate-limiter.service';

/** A credential the API's authentication does not know but a route of its own does (the metrics scraper's token). */
export type OtherCredential = (req: Request) => string | null;

const COUNTED = Symbol('rate-limit counted');

/** Whether `countRequest` already counted this request (the guard then adds only a batch's further messages). */
export function wasCounted(req: IncomingMessage): boolean {
  return (req as IncomingMessage & { [COUNTED]?: boolean })[COUNTED] === true;
}

/**
 * Counts one request (`cost` units) against its bucket (rate-limit.rules.ts): the credential's when it carries a right
 * one, else its client address's; a request with a right credential is refused while its address is over the limit.
 */
export async function countRequest(limiter: RateLimiter, req: Request, config: AppConfig, cost: number, other?: OtherCredential): Promise<void> {
  const auth = requestAuth(req, config);
  const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  const credential = auth.ok ? auth.credential : (other?.(req) ?? null);
  const bucket = bucketOf({
    signIn: req.method === 'POST' && req.path === SIGN_IN_PATH,
    address,
    credential,
    chatId: auth.ok ? auth.chatId : null,
    clientId: auth.ok ? (auth.agent?.clientId ?? null) : null,
  });
  const addressBucket = bucketOf({ signIn: false, address, credential: null });
  (req as Request & { [COUNTED]?: boolean })[COUNTED] = true;
  await limiter.hit(bucket, cost, credential !== null ? addressBucket : undefined);
}

/**
 * The first counting step of every request from the network (issue 37): any path, the API's documents, `/metrics`,
 * the console's files and unknown paths alike, before anything answers it. Only the health probes and an MCP tool
 * call's in-process request are not counted. The cookie's session and an agent's OAuth token are resolved first, so a
 * console request counts against its credential and an agent's against its client (issue 36).
 */
export function limitEveryRequest(limiter: RateLimiter, config: AppConfig, sessions: SessionLookup, other: OtherCredential, agents: AgentTokenLookup): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!limiter.enabled || isInProcess(req) || UNLIMITED_PATHS.has(req.path)) return next();
    resolveCookieSession(req, config, sessions)
      .then(() => resolveAgentToken(req, config, agents))
      .then(() => countRequest(limiter, req, config, 1, other))
      .then(
        () => next(),
        (e: unknown) => {
          if (e instanceof RateLimited) res.setHeader('Retry-After', String(e.retryAfterSeconds));
          const { status, messages } = toHttp(e);
          res.status(status).json(errorBody(messages));
        },
      );
  };
}
