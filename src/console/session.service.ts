import { Inject, Injectable } from '@nestjs/common';
import { credentialOfToken } from '../common/auth/credential';
import { SessionStore } from '../common/auth/session-store';
import { cookieFrom } from '../common/auth/token';
import { DomainError, Errors } from '../common/errors/errors';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { cookieOriginAllowed } from '../events/events-socket.rules';
import { cookieShouldBeSecure, SESSION_MAX_AGE_SECONDS, sessionCookieName, signInCookie, signOutCookie } from './session-cookie.rules';

export interface SessionRequest {
  origin: string | undefined;
  host: string | undefined;
  https: boolean;
  /** The request's Cookie header (sign-out revokes the session it names). */
  cookie?: string;
}

/** Sign-in and sign-out of the console: checks the token and writes the cookie header; stores nothing. */
@Injectable()
export class SessionService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionStore,
  ) {}

  /** The Set-Cookie value for a right token; 401 for a wrong one, 403 from a foreign page origin. */
  async signIn(token: string, req: SessionRequest): Promise<string> {
    this.requireOwnOrigin(req);
    if (!this.config.authToken) {
      throw new DomainError('auth_not_configured', 'the deployment has no operator token configured (SERVICE_AUTH_TOKEN)', { severity: 'unrecoverable' });
    }
    // The cookie carries a random session id bound to the credential here, never the token (issue 26).
    const credential = credentialOfToken(token, this.config);
    if (credential === null) throw Errors.unauthorized();
    const id = await this.sessions.create(credential, SESSION_MAX_AGE_SECONDS);
    return signInCookie(this.config.serviceName, id, cookieShouldBeSecure(req.https, this.config.publicUrl));
  }

  /** Revokes the session the cookie names (on every instance: it is deleted from the table) and clears the cookie. */
  async signOut(req: SessionRequest): Promise<string> {
    this.requireOwnOrigin(req);
    const id = cookieFrom(req.cookie, sessionCookieName(this.config.serviceName));
    if (id) await this.sessions.revoke(id);
    return signOutCookie(this.config.serviceName, cookieShouldBeSecure(req.https, this.config.publicUrl));
  }

  /** The same origin rule as the event socket's cookie: a page on another site may neither set nor clear it. */
  private requireOwnOrigin(req: SessionRequest): void {
    if (!cookieOriginAllowed(req.origin, req.host, this.config, req.https ? 'https' : 'http')) {
      throw new DomainError('forbidden', 'the auth cookie is not set or cleared for a page on another origin', { path: '$' });
    }
  }
}
