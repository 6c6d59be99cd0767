import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DataSource } from 'typeorm';

/**
 * oidc-provider's storage in the service's database (`oauth_records`), so every instance sees the same clients, codes,
 * tokens and grants: a code redeemed on one instance is consumed on all, and a revoked grant is gone for all at once.
 * One row per (model, id); `grant_id` lets a revocation drop every token of a grant in one statement.
 */
export function oauthAdapter(ds: DataSource): new (model: string) => Adapter {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      // Expired rows are swept when a grant is made (rare), not on every token.
      if (this.model === 'Grant') await ds.query(`DELETE FROM oauth_records WHERE expires_at < now()`);
      await ds.query(
        `INSERT INTO oauth_records (model, id, payload, grant_id, uid, expires_at) VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::int IS NULL THEN NULL ELSE now() + make_interval(secs => $6::int) END)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [this.model, id, JSON.stringify(payload), payload.grantId ?? null, payload.uid ?? null, expiresIn ?? null],
      );
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.one(`model = $1 AND id = $2`, [this.model, id]);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.one(`model = $1 AND uid = $2`, [this.model, uid]);
    }

    // No device flow: nothing is stored by user code.
    async findByUserCode(): Promise<undefined> {
      return undefined;
    }

    async consume(id: string): Promise<void> {
      await ds.query(`UPDATE oauth_records SET consumed_at = now() WHERE model = $1 AND id = $2`, [this.model, id]);
    }

    async destroy(id: string): Promise<void> {
      await ds.query(`DELETE FROM oauth_records WHERE model = $1 AND id = $2`, [this.model, id]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await ds.query(`DELETE FROM oauth_records WHERE grant_id = $1`, [grantId]);
    }

    private async one(where: string, params: unknown[]): Promise<AdapterPayload | undefined> {
      const rows = (await ds.query(
        `SELECT payload, extract(epoch FROM consumed_at)::bigint AS consumed FROM oauth_records WHERE ${where} AND (expires_at IS NULL OR expires_at > now())`,
        params,
      )) as { payload: AdapterPayload; consumed: string | number | null }[];
      const row = rows[0];
      if (!row) return undefined;
      return row.consumed === null ? row.payload : { ...row.payload, consumed: Number(row.consumed) };
    }
  };
}
