import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';

export interface OAuthSecrets {
  /** The private signing key (JWK, ES256) every instance signs with; its public half is the JWKS. */
  signingKey: Record<string, unknown>;
  /** Keys of the authorization server's signed cookies (an interaction begun on one instance resumes on another). */
  cookieKeys: string[];
}

/**
 * The authorization server's secrets, made once by whichever instance boots first and read by all (`oauth_secrets`):
 * generated, never configured, so there is nothing to copy between instances or to leak through the environment.
 */
export async function loadOAuthSecrets(ds: DataSource): Promise<OAuthSecrets> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...privateKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig', kid: randomBytes(8).toString('base64url') };
  const made = { signingKey: jwk, cookieKeys: [randomBytes(32).toString('base64url')] };
  // The first insert wins; a concurrent instance reads the winner's.
  await ds.query(`INSERT INTO oauth_secrets (name, value) VALUES ('server', $1) ON CONFLICT (name) DO NOTHING`, [JSON.stringify(made)]);
  const rows = (await ds.query(`SELECT value FROM oauth_secrets WHERE name = 'server'`)) as { value: OAuthSecrets }[];
  return rows[0].value;
}
