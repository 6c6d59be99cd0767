/**
 * Pure rules of the auth cookie's origin check (cross-site request forgery and WebSocket hijacking), shared by the
 * HTTP routes (auth.middleware.ts) and the event socket (events.gateway.ts). No Nest, no Express.
 */

export interface AllowedOrigins {
  corsOrigins: string[];
  publicUrl: string | null;
}

/**
 * Whether a page origin may use the auth cookie: the service's own origin (same host), `SERVICE_PUBLIC_URL`'s
 * origin, or an origin listed in `SERVICE_CORS_ORIGINS`. No `Origin` at all is a non-browser client (browsers always
 * send one on a WebSocket upgrade and on every non-GET fetch). The bearer header is not affected: a page can present
 * it only if it already holds the token.
 */
export function cookieOriginAllowed(origin: string | undefined, host: string | undefined, allowed: AllowedOrigins, scheme: 'http' | 'https'): boolean {
  if (origin === undefined) return true;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (o.origin === 'null') return false;
  // The service's own origin is its host AND the scheme the request came over (issue 26): http://host is another
  // origin than https://host, and a page served over plain http must not use the cookie of the https service.
  if (host && o.host.toLowerCase() === host.toLowerCase() && o.protocol === `${scheme}:`) return true;
  const same = (u: string) => {
    try {
      return new URL(u).origin === o.origin;
    } catch {
      return false;
    }
  };
  if (allowed.publicUrl && same(allowed.publicUrl)) return true;
  return allowed.corsOrigins.some(same);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CookieRequest {
  method: string;
  origin: string | undefined;
  host: string | undefined;
  /** The browser's `Sec-Fetch-Site` (`same-origin`, `same-site`, `cross-site`, `none`), when sent. */
  secFetchSite: string | undefined;
  /** The scheme the request reached the service over (X-Forwarded-Proto only from a trusted proxy). */
  scheme: 'http' | 'https';
}

/**
 * Whether an HTTP request authenticated by the auth cookie may proceed (docs/adr/0041-console-sign-in-sessions.md): a foreign `Origin`
 * is refused on every method; a state-changing request must carry an allowed `Origin` (browsers always send one on
 * POST, PUT, PATCH and DELETE, so its absence means a client that should use the bearer header); a read without
 * `Origin` is refused when the browser says another site caused it (`Sec-Fetch-Site: cross-site` or `same-site`).
 * Returns why it is refused, or null.
 */
export function cookieRequestRefusal(req: CookieRequest, allowed: AllowedOrigins): string | null {
  if (req.origin !== undefined) {
    return cookieOriginAllowed(req.origin, req.host, allowed, req.scheme) ? null : 'the auth cookie is not accepted from this page origin';
  }
  if (!SAFE_METHODS.has(req.method.toUpperCase())) {
    return 'a state-changing request authenticated by the auth cookie must carry the page Origin (use the Authorization header outside a browser)';
  }
  const site = req.secFetchSite?.toLowerCase();
  if (site === 'cross-site' || site === 'same-site') return 'the auth cookie is not accepted on a request another site caused';
  return null;
}
