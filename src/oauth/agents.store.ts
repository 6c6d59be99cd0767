import { Injectable } from '@nestjs/common';
import { Tx } from '../database/tx';
import type { AgentScope } from './oauth.rules';

export interface ConnectedAgent {
  clientId: string;
  name: string;
  scope: AgentScope;
  account: string;
  redirectHost: string | null;
  connectedAt: Date;
  lastUsedAt: Date | null;
}

/**
 * The agents a person connected (`oauth_agents`) and their grants in `oauth_records`. Disconnecting deletes the
 * client's grants and every token of them in the caller's transaction: every instance reads tokens from the table, so the
 * agent is refused everywhere from the next request on.
 */
@Injectable()
export class AgentsStore {
  constructor(private readonly tx: Tx) {}

  async connected(a: { clientId: string; name: string; scope: AgentScope; account: string; redirectHost: string | null }): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO oauth_agents (client_id, name, scope, account, redirect_host) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (client_id) DO UPDATE SET name = EXCLUDED.name, scope = EXCLUDED.scope, account = EXCLUDED.account, redirect_host = EXCLUDED.redirect_host, connected_at = now()`,
      [a.clientId, a.name, a.scope, a.account, a.redirectHost],
    );
  }

  /** The agents with a live grant (one whose grant was revoked, by itself or a person, or expired, is not connected). */
  async list(): Promise<ConnectedAgent[]> {
    const rows = (await this.tx.manager.query(`SELECT client_id, name, scope, account, redirect_host, connected_at, last_used_at FROM oauth_agents a
       WHERE EXISTS (SELECT 1 FROM oauth_records g WHERE g.model = 'Grant' AND g.payload->>'clientId' = a.client_id AND (g.expires_at IS NULL OR g.expires_at > now()))
       ORDER BY connected_at DESC LIMIT 500`)) as {
      client_id: string; name: string; scope: string; account: string; redirect_host: string | null; connected_at: Date | string; last_used_at: Date | string | null;
    }[];
    return rows.map((r) => ({
      clientId: r.client_id,
      name: r.name,
      scope: r.scope === 'operate' ? 'operate' : 'read', // written from AGENT_SCOPES only
      account: r.account,
      redirectHost: r.redirect_host,
      connectedAt: new Date(r.connected_at),
      lastUsedAt: r.last_used_at === null ? null : new Date(r.last_used_at),
    }));
  }

  /** Removes the agent, its grants and all their codes and tokens. Answers whether it was connected. */
  async disconnect(clientId: string): Promise<ConnectedAgent | null> {
    const agent = (await this.list()).find((a) => a.clientId === clientId) ?? null;
    await this.tx.run(async () => {
      await this.tx.manager.query(
        `DELETE FROM oauth_records WHERE grant_id IN (SELECT id FROM oauth_records WHERE model = 'Grant' AND payload->>'clientId' = $1) OR (model = 'Grant' AND payload->>'clientId' = $1)`,
        [clientId],
      );
      await this.tx.manager.query(`DELETE FROM oauth_agents WHERE client_id = $1`, [clientId]);
    });
    return agent;
  }
}
