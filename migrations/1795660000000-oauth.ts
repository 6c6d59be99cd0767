import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 36: the authorization server's storage, shared by every instance. `oauth_records` holds what oidc-provider
 * stores (clients registered, codes, tokens, grants, sessions, interactions), one row per model and id;
 * `oauth_secrets` the signing key and cookie keys (made once, read by every instance); `oauth_agents` the connected
 * agents a person consented to (name, scope, last use).
 */
export class OAuth1795660000000 implements MigrationInterface {
  name = 'OAuth1795660000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "oauth_records" ("model" text NOT NULL, "id" text NOT NULL, "payload" jsonb NOT NULL, "grant_id" text, "uid" text, "expires_at" TIMESTAMP WITH TIME ZONE, "consumed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_oauth_records" PRIMARY KEY ("model", "id"))`,
    );
    await q.query(`CREATE INDEX "IDX_oauth_records_grant" ON "oauth_records" ("grant_id") WHERE "grant_id" IS NOT NULL`);
    await q.query(`CREATE INDEX "IDX_oauth_records_uid" ON "oauth_records" ("uid") WHERE "uid" IS NOT NULL`);
    await q.query(`CREATE INDEX "IDX_oauth_records_expires" ON "oauth_records" ("expires_at") WHERE "expires_at" IS NOT NULL`);
    await q.query(`CREATE TABLE "oauth_secrets" ("name" text NOT NULL, "value" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_oauth_secrets" PRIMARY KEY ("name"))`);
    await q.query(
      `CREATE TABLE "oauth_agents" ("client_id" text NOT NULL, "name" text NOT NULL, "scope" text NOT NULL, "account" text NOT NULL, "redirect_host" text, "connected_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_oauth_agents" PRIMARY KEY ("client_id"))`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "oauth_agents"`);
    await q.query(`DROP TABLE "oauth_secrets"`);
    await q.query(`DROP TABLE "oauth_records"`);
  }
}
