import { MigrationInterface, QueryRunner } from 'typeorm';

/** The price audit's standing flags (issue 30): slots whose machine price differs from the service's. */
export class PriceAuditFlags1795630682925 implements MigrationInterface {
  name = 'PriceAuditFlags1795630682925';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "price_audit_flags" ("slot_id" text NOT NULL, "location_id" text NOT NULL, "machine_fen" bigint NOT NULL, "service_fen" bigint NOT NULL, "flagged_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_price_audit_flags" PRIMARY KEY ("slot_id"))`,
    );
    await q.query(`CREATE INDEX "idx_price_audit_flags_location" ON "price_audit_flags" ("location_id")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "price_audit_flags"`);
  }
}
