import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Console sign-in sessions (issue 26): the auth cookie holds a random session id, bound here (its SHA-256, never the id
 * itself) to the credential that signed in; sign-out deletes the row, and a row past `expires_at` authenticates nothing.
 */
export class ConsoleSessions1764090000200 implements MigrationInterface {
  name = 'ConsoleSessions1764090000200';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "console_sessions" ("id_hash" text NOT NULL, "credential" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_console_sessions" PRIMARY KEY ("id_hash"))`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "console_sessions"`);
  }
}
