import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 38: each client credential's last write as a WAL position, read before a read goes to a replica
 * (src/database/replicas/read-your-writes.ts). UNLOGGED: written after every client transaction, read on the primary only.
 */
export class ReadYourWrites1795650000000 implements MigrationInterface {
  name = 'ReadYourWrites1795650000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE UNLOGGED TABLE "read_your_writes" ("reader" text NOT NULL, "lsn" pg_lsn NOT NULL, "written_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_read_your_writes" PRIMARY KEY ("reader"))`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "read_your_writes"`);
  }
}
