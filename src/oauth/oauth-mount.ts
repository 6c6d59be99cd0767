import type { Express, NextFunction, Request, Response } from 'express';
import type { OAuthServer } from './oauth-server.service';
import { AUTHORIZATION_SERVER_PATH, OAUTH_MOUNT } from './oauth.rules';

/**
 * Mounts the authorization server under /oauth, and its metadata at the RFC 8414 path for an issuer with a path
 * (`/.well-known/oauth-authorization-server/oauth`) as well as oidc-provider's own (`/oauth/.well-known/openid-configuration`).
 * Its answers are the provider's (OAuth JSON errors, not the ucp envelope: that is what OAuth clients read).
 */
export function mountAuthorizationServer(app: Express, oauth: OAuthServer): void {
  if (oauth.usesExternal) return; // an outside authorization server issues the tokens (SERVICE_OAUTH_ISSUER)
  const serve = (req: Request, res: Response, next: NextFunction) => void oauth.handle(req, res).catch(next);
  app.get(AUTHORIZATION_SERVER_PATH, (req: Request, res: Response, next: NextFunction) => {
    // Served as the provider's discovery document, so every URL in it is the provider's own.
    req.originalUrl = `${OAUTH_MOUNT}/.well-known/openid-configuration`;
    req.url = '/.well-known/openid-configuration';
    serve(req, res, next);
  });
  app.use(OAUTH_MOUNT, serve);
}
