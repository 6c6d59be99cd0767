import { MigrationInterface, QueryRunner } from 'typeorm';

/** Foundation: the event log. */
export class Init1763800000000 implements MigrationInterface {
  name = 'Init1763800000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "seq" BIGSERIAL NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "kind" text NOT NULL, "summary" text NOT NULL, "reasoning" text NOT NULL, "location" text, "data" jsonb, CONSTRAINT "UQ_44840d7c5944a3bfbf21a6113d8" UNIQUE ("seq"), CONSTRAINT "PK_40731c7151fe4be3116e45ddf73" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "idx_events_location_seq" ON "events" ("location", "seq")`);
    await q.query(`CREATE INDEX "idx_events_kind_seq" ON "events" ("kind", "seq")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."idx_events_kind_seq"`);
    await q.query(`DROP INDEX "public"."idx_events_location_seq"`);
    await q.query(`DROP TABLE "events"`);
  }
}
