import { ConfigError } from './config-error';

/** An outside authorization server for agents instead of the built-in one (issue 36): its issuer and JWKS. */
export interface ExternalOAuthConfig {
  issuer: string;
  jwksUrl: string;
}

/**
 * `SERVICE_OAUTH_ISSUER` and `SERVICE_OAUTH_JWKS_URL`, both or neither (https only in production). `readUrl` is the
 * configuration's own URL reader, so the messages read like every other setting's.
 */
export function externalOAuthOf(readUrl: (name: string, protocols: string[]) => string | null, production: boolean): ExternalOAuthConfig | null {
  const protocols = production ? ['https:'] : ['http:', 'https:'];
  const issuer = readUrl('SERVICE_OAUTH_ISSUER', protocols);
  const jwksUrl = readUrl('SERVICE_OAUTH_JWKS_URL', protocols);
  if ((issuer === null) !== (jwksUrl === null)) {
    throw new ConfigError(issuer ? 'SERVICE_OAUTH_JWKS_URL' : 'SERVICE_OAUTH_ISSUER', 'an outside authorization server needs both SERVICE_OAUTH_ISSUER and SERVICE_OAUTH_JWKS_URL');
  }
  return issuer && jwksUrl ? { issuer, jwksUrl } : null;
}
