import type { AgentGrant } from '../common/auth/credential';
import { scopeOfToken } from './oauth.rules';

type RemoteKeys = (...a: never[]) => Promise<unknown>;

/**
 * Access tokens of an outside authorization server (SERVICE_OAUTH_ISSUER, issue 36): JWTs (RFC 9068) checked with
 * `jose` against its published keys (SERVICE_OAUTH_JWKS_URL, fetched with a timeout and cached): signature, issuer,
 * audience = this service's resource, expiry; the scope (`scope`, or `scp`) and the client (`client_id`, or `azp`)
 * as the built-in server's tokens carry them. Revocation is that server's: a token holds until it expires.
 */
export class ExternalTokens {
  private keys: RemoteKeys | null = null;

  constructor(private readonly cfg: { issuer: string; jwksUrl: string }) {}

  async verify(token: string, resource: string): Promise<AgentGrant | null> {
    if (token.split('.').length !== 3) return null;
    const jose = await import('jose');
    this.keys ??= jose.createRemoteJWKSet(new URL(this.cfg.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 }) as unknown as RemoteKeys;
    try {
      const { payload } = await jose.jwtVerify(token, this.keys as unknown as Parameters<typeof jose.jwtVerify>[1], {
        issuer: this.cfg.issuer,
        audience: resource,
        clockTolerance: 30,
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      });
      const scopes = typeof payload.scope === 'string' ? payload.scope : Array.isArray(payload.scp) ? payload.scp.join(' ') : undefined;
      const scope = scopeOfToken(scopes);
      const clientId = typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : null;
      return scope && clientId ? { clientId, scope } : null;
    } catch {
      return null; // any failure (signature, issuer, audience, expiry, keys unreachable) is a refused token
    }
  }
}
