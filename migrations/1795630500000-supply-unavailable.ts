import { MigrationInterface, QueryRunner } from 'typeorm';

/** Goods a supplier refused as unavailable for a run's purchase order (issue 25): passed over until offered again. */
export class SupplyUnavailable1795630500000 implements MigrationInterface {
  name = 'SupplyUnavailable1795630500000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "supply_unavailable" ("namespace" text NOT NULL, "vendor_sku" text NOT NULL, "marked_at" TIMESTAMP WITH TIME ZONE NOT NULL, "reason" text NOT NULL, "run_id" text, CONSTRAINT "PK_43e8a9c5eacca63fb438ac51a1a" PRIMARY KEY ("namespace", "vendor_sku"))`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "supply_unavailable"`);
  }
}
