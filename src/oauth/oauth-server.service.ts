import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import { DataSource } from 'typeorm';
import type { AgentGrant, AgentTokenLookup } from '../common/auth/credential';
import { publicBase } from '../common/public-url';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { ExternalTokens } from './external-tokens';
import { createOAuthProvider } from './oauth-provider';
import { loadOAuthSecrets, OAuthSecrets } from './oauth-secrets';
import { audienceMatches, resourceOf, scopeOfToken } from './oauth.rules';

const TOUCH_MS = 60_000;

/**
 * The authorization server (one oidc-provider per public base: one in production, SERVICE_PUBLIC_URL; in staging
 * each Host the service is reached by) and the resource server's token check.
 */
@Injectable()
export class OAuthServer implements AgentTokenLookup, OnApplicationShutdown {
  private readonly logger = new Logger('OAuth');
  private secrets: Promise<OAuthSecrets> | null = null;
  private readonly providers = new Map<string, Promise<Provider>>();
  private readonly touched = new Map<string, number>();
  private readonly external: ExternalTokens | null;

  constructor(
    private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.external = config.externalOAuth ? new ExternalTokens(config.externalOAuth) : null;
  }

  /** Whether an outside authorization server issues the agents' tokens (then the built-in one is not mounted). */
  get usesExternal(): boolean {
    return this.external !== null;
  }

  baseOf(req: Request): string {
    return publicBase(this.config.publicUrl, req);
  }

  providerFor(base: string): Promise<Provider> {
    let p = this.providers.get(base);
    if (!p) {
      if (this.providers.size >= 16) this.providers.clear(); // staging reached by many Host names: keep a few
      this.secrets ??= loadOAuthSecrets(this.ds);
      p = this.secrets.then((s) => createOAuthProvider(base, this.ds, s, { proxy: this.config.trustedProxies.length > 0 }));
      p.then((provider) => provider.on('server_error', (_ctx: unknown, err: Error) => this.logger.error(`authorization server error: ${err.message}`))).catch(() => undefined);
      this.providers.set(base, p);
      p.catch(() => this.providers.delete(base));
    }
    return p;
  }

  /** Serves the authorization server's endpoints (mounted under /oauth). */
  async handle(req: Request, res: Response): Promise<void> {
    const provider = await this.providerFor(this.baseOf(req));
    await (provider.callback() as unknown as (req: IncomingMessage, res: Response) => Promise<void>)(req, res);
  }

  /**
   * The resource server's check (one read): the token's record is live, its audience is this service, its grant
   * still exists and its client is connected. Token values are never logged.
   */
  async verify(req: IncomingMessage, token: string): Promise<AgentGrant | null> {
    if (this.external) return this.external.verify(token, resourceOf(this.baseOf(req as Request)));
    if (token.length > 200) return null;
    const rows = (await this.ds.query(
      `SELECT t.payload FROM oauth_records t
         JOIN oauth_records g ON g.model = 'Grant' AND g.id = t.grant_id AND (g.expires_at IS NULL OR g.expires_at > now())
         JOIN oauth_agents a ON a.client_id = t.payload->>'clientId'
       WHERE t.model = 'AccessToken' AND t.id = $1 AND t.expires_at > now()`,
      [token],
    )) as { payload: { aud?: string | string[]; scope?: string; clientId?: string; exp?: number } }[];
    const p = rows[0]?.payload;
    if (!p?.clientId || (p.exp !== undefined && p.exp * 1000 <= Date.now())) return null;
    if (!audienceMatches(p.aud, resourceOf(this.baseOf(req as Request)))) return null;
    const scope = scopeOfToken(p.scope);
    if (!scope) return null;
    await this.touch(p.clientId);
    return { clientId: p.clientId, scope };
  }

  /** Records the agent's last use, at most once a minute per agent and instance (not a write per request). */
  private async touch(clientId: string): Promise<void> {
    const now = Date.now();
    if ((this.touched.get(clientId) ?? 0) > now - TOUCH_MS) return;
    if (this.touched.size > 10_000) this.touched.clear();
    this.touched.set(clientId, now);
    await this.ds.query(`UPDATE oauth_agents SET last_used_at = now() WHERE client_id = $1`, [clientId]);
  }

  onApplicationShutdown(): void {
    this.providers.clear();
  }
}
