import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppConfig } from '../../config/app-config';
import { AgentTokenLookup, requestAuth, resolveAgentToken, resolveCookieSession, SessionLookup } from './credential';

/** The one public route that takes a body: the console's sign-in (its body is the token being presented). */
export const SIGN_IN_PATH = '/ucp/v1/auth/session';

/**
 * Authenticates from the headers before any body is read, and runs `parse` (the JSON body parser) only for an
 * authenticated request: a request without a valid credential reaches the guard with no body parsed (its 401, 403 or
 * 503 costs no parsing), and the other public routes (discovery, health) take no body. The sign-in's small body is
 * parsed by `parseSignIn` (a tight size limit). Authenticated answers are `no-store`.
 */
export function authBeforeBody(config: AppConfig, sessions: SessionLookup, parse: RequestHandler, parseSignIn: RequestHandler, agents: AgentTokenLookup): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    resolveCookieSession(req, config, sessions)
      .then(() => resolveAgentToken(req, config, agents)) // issue 36: an agent's OAuth token
      .then(() => afterSession(req, res, next))
      .catch(next);
  };

  function afterSession(req: Request, res: Response, next: NextFunction) {
    const auth = requestAuth(req, config);
    if (req.method === 'POST' && req.path === SIGN_IN_PATH) {
      res.setHeader('Cache-Control', 'no-store');
      return parseSignIn(req, res, next);
    }
    if (!auth.ok) return next();
    res.setHeader('Cache-Control', 'no-store');
    return parse(req, res, next);
  }
}
