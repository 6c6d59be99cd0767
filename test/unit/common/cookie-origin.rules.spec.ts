import { cookieRequestRefusal } from '../../../src/common/auth/cookie-origin.rules';
import { cookieOriginAllowed } from '../../../src/events/events-socket.rules';
import { cookieOriginAllowed as shared } from '../../../src/common/auth/cookie-origin.rules';

const allowed = { corsOrigins: ['https://dash.example'], publicUrl: 'https://svc.example' };
const req = (method: string, origin?: string, secFetchSite?: string, scheme: 'http' | 'https' = 'http') => ({ method, origin, host: 'svc.internal:8080', secFetchSite, scheme });

describe('cookieRequestRefusal (issue 17: the auth cookie on HTTP routes)', () => {
  it('the socket and the HTTP routes share one origin rule', () => {
    expect(cookieOriginAllowed).toBe(shared);
  });

  it('accepts the own origin (same host or SERVICE_PUBLIC_URL) and SERVICE_CORS_ORIGINS on every method', () => {
    for (const m of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
      expect(cookieRequestRefusal(req(m, 'http://svc.internal:8080'), allowed)).toBeNull();
      expect(cookieRequestRefusal(req(m, 'https://svc.example'), allowed)).toBeNull();
      expect(cookieRequestRefusal(req(m, 'https://dash.example', 'cross-site'), allowed)).toBeNull();
    }
  });

  it('the own host counts only over the same scheme (issue 26): an http page of an https service is another origin', () => {
    for (const m of ['GET', 'POST']) {
      expect(cookieRequestRefusal(req(m, 'http://svc.internal:8080', undefined, 'https'), allowed)).toMatch(/origin/);
      expect(cookieRequestRefusal(req(m, 'https://svc.internal:8080', undefined, 'http'), allowed)).toMatch(/origin/);
      expect(cookieRequestRefusal(req(m, 'https://svc.internal:8080', undefined, 'https'), allowed)).toBeNull();
    }
  });

  it('refuses a foreign, opaque or malformed Origin on every method', () => {
    for (const m of ['GET', 'POST']) {
      expect(cookieRequestRefusal(req(m, 'https://evil.example'), allowed)).toMatch(/origin/);
      expect(cookieRequestRefusal(req(m, 'null'), allowed)).not.toBeNull();
      expect(cookieRequestRefusal(req(m, 'not a url'), allowed)).not.toBeNull();
      expect(cookieRequestRefusal(req(m, 'https://dash.example.evil'), allowed)).not.toBeNull();
    }
  });

  it('a state-changing request without Origin is refused; a read without it is accepted unless another site caused it', () => {
    for (const m of ['POST', 'PUT', 'DELETE', 'PATCH', 'post']) expect(cookieRequestRefusal(req(m), allowed)).toMatch(/Origin/);
    expect(cookieRequestRefusal(req('GET'), allowed)).toBeNull();
    expect(cookieRequestRefusal(req('HEAD', undefined, 'same-origin'), allowed)).toBeNull();
    expect(cookieRequestRefusal(req('GET', undefined, 'none'), allowed)).toBeNull();
    expect(cookieRequestRefusal(req('GET', undefined, 'cross-site'), allowed)).not.toBeNull();
    expect(cookieRequestRefusal(req('GET', undefined, 'same-site'), allowed)).not.toBeNull();
  });
});
