import { PROTECTED_RESOURCE_PATH } from '../common/auth/bearer-challenge.rules';

export { PROTECTED_RESOURCE_PATH };

/**
 * Pure rules of the service as an OAuth protected resource and authorization server (issue 36). No Nest, no HTTP.
 */

/** What a person may grant an agent: reading, or everything the operator token does (never the owner's powers). */
export const AGENT_SCOPES = ['read', 'operate'] as const;
export type AgentScope = (typeof AGENT_SCOPES)[number];

export const SCOPE_WORDS: Record<AgentScope, string> = {
  read: 'Read only: see machines, stock, sales, orders, plans, approvals and events; change nothing.',
  operate:
    'Operate: everything the operator token can do, including checkouts, purchase orders, price changes and restock requests within the guard rules; never approvals, releasing the kill switch or guard rules (those stay with the owner).',
};

/** Path of the authorization-server metadata (RFC 8414, for the issuer `<base>/oauth`). */
export const OAUTH_MOUNT = '/oauth';
export const AUTHORIZATION_SERVER_PATH = `/.well-known/oauth-authorization-server${OAUTH_MOUNT}`;

const trimmed = (base: string) => base.replace(/\/+$/, '');

/** The resource indicator (RFC 8707) of this service: its base URL. A token is for it only when its audience is this. */
export function resourceOf(base: string): string {
  return `${trimmed(base)}/`;
}

/** The issuer of the service's own authorization server. */
export function issuerOf(base: string): string {
  return `${trimmed(base)}${OAUTH_MOUNT}`;
}

/** RFC 9728 protected resource metadata. `issuer`: the authorization server (the service's own unless configured). */
export function protectedResourceMetadata(base: string, serviceName: string, externalIssuer: string | null = null) {
  return {
    resource: resourceOf(base),
    authorization_servers: [externalIssuer ?? issuerOf(base)],
    scopes_supported: [...AGENT_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: serviceName,
    resource_documentation: `${trimmed(base)}/ucp/v1/openapi.json`,
  };
}

/** The scope a token's granted scopes amount to: operate includes read; nothing known is null (refused). */
export function scopeOfToken(scopes: string | undefined): AgentScope | null {
  const s = new Set((scopes ?? '').split(' '));
  return s.has('operate') ? 'operate' : s.has('read') ? 'read' : null;
}

/** Whether a token's audience names this resource (exactly: a token issued for another service is never taken). */
export function audienceMatches(aud: string | string[] | undefined, resource: string): boolean {
  return (Array.isArray(aud) ? aud : aud ? [aud] : []).includes(resource);
}

/** The scopes a person may pick for a request: never more than the client asked for (asking nothing asks for both). */
export function grantableScopes(asked: string | undefined): AgentScope[] {
  const s = new Set((asked ?? '').split(' ').filter(Boolean));
  if (![...s].some((x) => (AGENT_SCOPES as readonly string[]).includes(x))) return [...AGENT_SCOPES];
  return s.has('operate') ? [...AGENT_SCOPES] : ['read'];
}

/** The host a redirect URI sends the person back to, shown on the consent page. */
export function redirectHost(uri: string | undefined): string | null {
  if (!uri) return null;
  try {
    return new URL(uri).host || uri;
  } catch {
    return null;
  }
}
