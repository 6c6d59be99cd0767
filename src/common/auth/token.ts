import { hash, timingSafeEqual } from 'node:crypto';

/** Constant-time comparison: both sides are hashed first so their lengths never leak through timing. */
export function tokenMatches(presented: string | undefined | null, expected: string): boolean {
  if (!presented) return false;
  const a = hash('sha256', presented, 'buffer'); // one-shot: no Hash object per request
  return timingSafeEqual(a, expectedDigest(expected));
}

// The configured tokens' digests are computed once (one hash per comparison instead of two); there are at most two.
const digests = new Map<string, Buffer>();
function expectedDigest(token: string): Buffer {
  let d = digests.get(token);
  if (!d) {
    if (digests.size >= 8) digests.clear(); // tests configure many tokens in one process
    digests.set(token, (d = hash('sha256', token, 'buffer')));
  }
  return d;
}

export function bearerFrom(header: string | string[] | undefined): string | null {
  const h = Array.isArray(header) ? header[0] : header;
  if (!h) return null;
  const m = /^Bearer\s+(.+)$/i.exec(h.trim());
  return m ? m[1].trim() : null;
}

export function cookieFrom(cookieHeader: string | string[] | undefined, name: string): string | null {
  const h = Array.isArray(cookieHeader) ? cookieHeader.join(';') : cookieHeader;
  if (!h) return null;
  for (const part of h.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return part.slice(i + 1).trim();
      }
    }
  }
  return null;
}

/** The token a request presents: the bearer header, else the `<SERVICE_NAME>_auth` cookie. */
export function presentedToken(headers: Record<string, string | string[] | undefined>, serviceName: string): string | null {
  return bearerFrom(headers['authorization']) ?? cookieFrom(headers['cookie'], `${serviceName}_auth`);
}
