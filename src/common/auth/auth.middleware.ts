import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppConfig } from '../../config/app-config';
import { requestAuth } from './credential';

/**
 * Authenticates from the headers before any body is read, and runs `parse` (the JSON body parser) only for an
 * authenticated request: a request without a valid credential reaches the guard with no body parsed (its 401, 403 or
 * 503 costs no parsing), and the public routes (discovery, health) take no body. Authenticated answers are `no-store`.
 */
export function authBeforeBody(config: AppConfig, parse: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const auth = requestAuth(req, config);
    if (!auth.ok) return next();
    res.setHeader('Cache-Control', 'no-store');
    return parse(req, res, next);
  };
}
