import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { oauthAdapter } from './oauth-adapter';
import type { OAuthSecrets } from './oauth-secrets';
import { AGENT_SCOPES, issuerOf, resourceOf } from './oauth.rules';

/** Lifetimes (seconds). Access tokens are short; a refresh token rotates at each use and ends with its grant. */
export const OAUTH_TTL = { accessToken: 600, code: 60, refreshToken: 30 * 86400, grant: 30 * 86400, interaction: 900, session: 8 * 3600 } as const;

/** Where the person consents: the console's page (signed in with the console's own sign-in). */
export const CONSENT_URL = (uid: string) => `/console/#/connect/${encodeURIComponent(uid)}`;

/**
 * oidc-provider (panva, OpenID-certified) as the service's own authorization server for agents (issue 36,
 * docs/adr/0070-agents-through-oauth.md): authorization code with PKCE S256 only, exact redirect URIs, dynamic registration (RFC 7591) and
 * client ID metadata documents, resource indicators (RFC 8707: this service is the only resource, and a request that
 * names none gets it), opaque access tokens (looked up in the database at each use, so a revocation holds at once on
 * every instance), rotating refresh tokens, revocation (RFC 7009). The person's consent is the console's page.
 */
export async function createOAuthProvider(base: string, ds: DataSource, secrets: OAuthSecrets, opts: { proxy: boolean }): Promise<Provider> {
  const { default: ProviderClass } = await import('oidc-provider');
  const resource = resourceOf(base);
  const configuration: Configuration = {
    adapter: oauthAdapter(ds),
    jwks: { keys: [secrets.signingKey] },
    cookies: { keys: secrets.cookieKeys },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', id_token_signed_response_alg: 'ES256' },
    responseTypes: ['code'],
    // Known to the server too (not only to the resource): assistants register with `scope: "read operate"` (RFC 7591).
    scopes: ['openid', 'offline_access', ...AGENT_SCOPES],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== resource) {
            const { errors } = await import('oidc-provider');
            throw new errors.InvalidTarget(`this authorization server issues tokens for ${resource} only`);
          }
          return { scope: AGENT_SCOPES.join(' '), audience: resource, accessTokenTTL: OAUTH_TTL.accessToken, accessTokenFormat: 'opaque' };
        },
      },
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    // Every authorization asks the person again: a grant is only ever the one just consented to.
    loadExistingGrant: async (ctx) => {
      const id = ctx.oidc.result?.consent?.grantId;
      return id ? ctx.oidc.provider.Grant.find(id) : undefined;
    },
    interactions: { url: (_ctx, interaction) => CONSENT_URL(interaction.uid) },
    ttl: {
      AccessToken: OAUTH_TTL.accessToken,
      AuthorizationCode: OAUTH_TTL.code,
      RefreshToken: OAUTH_TTL.refreshToken,
      Grant: OAUTH_TTL.grant,
      Interaction: OAUTH_TTL.interaction,
      Session: OAUTH_TTL.session,
    },
  };
  const provider = new ProviderClass(issuerOf(base), configuration);
  // X-Forwarded-Proto/Host are believed only behind the proxies the deployment trusts (SERVICE_TRUSTED_PROXIES).
  provider.proxy = opts.proxy;
  // A client that names no scope asks for both; the person picks on the consent page.
  provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (ctx.path === '/auth' && ctx.method === 'GET' && typeof ctx.query.scope !== 'string') ctx.query = { ...ctx.query, scope: AGENT_SCOPES.join(' ') };
    await next();
  });
  return provider;
}
