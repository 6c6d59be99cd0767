/**
 * The sign-in cookie of the console (issue 19). It carries a random session id bound server-side to the credential that
 * signed in (issue 26: never the token itself; revoked by sign-out, expiring after SESSION_MAX_AGE_SECONDS). HttpOnly (no script
 * reads it), SameSite=Strict (never sent on a cross-site request), Path=/ (the API and the socket), Secure when the
 * browser reached the service over https.
 */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

export function sessionCookieName(serviceName: string): string {
  return `${serviceName}_auth`;
}

export function signInCookie(serviceName: string, sessionId: string, secure: boolean): string {
  const parts = [`${sessionCookieName(serviceName)}=${encodeURIComponent(sessionId)}`, 'HttpOnly', 'SameSite=Strict', 'Path=/', `Max-Age=${SESSION_MAX_AGE_SECONDS}`];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function signOutCookie(serviceName: string, secure: boolean): string {
  const parts = [`${sessionCookieName(serviceName)}=`, 'HttpOnly', 'SameSite=Strict', 'Path=/', 'Max-Age=0', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT'];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/**
 * Whether the browser reached the service over https: Express's `req.secure` (it reads X-Forwarded-Proto only from
 * a trusted proxy, loopback here), or a configured public URL that is https (a TLS-terminating proxy elsewhere).
 */
export function cookieShouldBeSecure(requestIsHttps: boolean, publicUrl: string | null): boolean {
  return requestIsHttps || (publicUrl?.startsWith('https:') ?? false);
}
