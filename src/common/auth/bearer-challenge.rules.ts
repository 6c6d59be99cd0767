/**
 * The bearer challenge of a refusal (issue 36). Pure. Here in common because the exception filters below the OAuth
 * module write it on every 401.
 */

/** RFC 9728 protected resource metadata of the service. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

export function resourceMetadataUrl(base: string): string {
  return `${base.replace(/\/+$/, '')}${PROTECTED_RESOURCE_PATH}`;
}

/**
 * The `WWW-Authenticate` challenge of a refusal (RFC 6750 with RFC 9728's `resource_metadata`): every 401 names the
 * metadata, so a client that knows nothing finds the authorization server; a token refused for its scope says which.
 */
export function bearerChallenge(base: string, opts: { error?: 'invalid_token' | 'insufficient_scope'; description?: string; scope?: string } = {}): string {
  const parts = [`realm="ucp"`, `resource_metadata="${resourceMetadataUrl(base)}"`];
  if (opts.error) parts.push(`error="${opts.error}"`);
  if (opts.description) parts.push(`error_description="${opts.description.replace(/["\\]/g, '')}"`);
  parts.push(`scope="${opts.scope ?? 'read operate'}"`);
  return `Bearer ${parts.join(', ')}`;
}

/** The challenge of a 401: `invalid_token` when a bearer token was presented and refused. */
export function unauthorizedChallenge(base: string, presentedBearer: boolean): string {
  return bearerChallenge(base, presentedBearer ? { error: 'invalid_token', description: 'the token is unknown, expired or revoked, or not for this service' } : {});
}
