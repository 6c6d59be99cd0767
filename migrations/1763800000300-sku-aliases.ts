import { MigrationInterface, QueryRunner } from 'typeorm';

/** Supply side: the stored (operator-confirmed) aliases of the SKU registry. */
export class SkuAliases1763800000300 implements MigrationInterface {
  name = 'SkuAliases1763800000300';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "sku_aliases" ("sku_a" text NOT NULL, "sku_b" text NOT NULL, "source" text NOT NULL, "confirmed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "written_by" text NOT NULL, CONSTRAINT "PK_f11957b0562538016492f2b0e71" PRIMARY KEY ("sku_a", "sku_b"))`);
    await q.query(`CREATE INDEX "idx_sku_aliases_b" ON "sku_aliases" ("sku_b")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."idx_sku_aliases_b"`);
    await q.query(`DROP TABLE "sku_aliases"`);
  }
}
