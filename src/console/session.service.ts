import { Inject, Injectable } from '@nestjs/common';
import { tokenMatches } from '../common/auth/token';
import { DomainError, Errors } from '../common/errors';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { cookieOriginAllowed } from '../events/events-socket.rules';
import { cookieShouldBeSecure, signInCookie, signOutCookie } from './session-cookie.rules';

export interface SessionRequest {
  origin: string | undefined;
  host: string | undefined;
  https: boolean;
}

/** Sign-in and sign-out of the console: checks the token and writes the cookie header; stores nothing. */
@Injectable()
export class SessionService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The Set-Cookie value for a right token; 401 for a wrong one, 403 from a foreign page origin. */
  signIn(token: string, req: SessionRequest): string {
    this.requireOwnOrigin(req);
    if (!this.config.authToken) {
      throw new DomainError('auth_not_configured', 'the deployment has no operator token configured (SERVICE_AUTH_TOKEN)', { severity: 'unrecoverable' });
    }
    if (!tokenMatches(token, this.config.authToken)) throw Errors.unauthorized();
    return signInCookie(this.config.serviceName, token, cookieShouldBeSecure(req.https, this.config.publicUrl));
  }

  signOut(req: SessionRequest): string {
    this.requireOwnOrigin(req);
    return signOutCookie(this.config.serviceName, cookieShouldBeSecure(req.https, this.config.publicUrl));
  }

  /** The same origin rule as the event socket's cookie: a page on another site may neither set nor clear it. */
  private requireOwnOrigin(req: SessionRequest): void {
    if (!cookieOriginAllowed(req.origin, req.host, this.config, req.https ? 'https' : 'http')) {
      throw new DomainError('forbidden', 'the auth cookie is not set or cleared for a page on another origin', { path: '$' });
    }
  }
}
