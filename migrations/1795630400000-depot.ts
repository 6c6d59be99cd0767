import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The depot (issue 25): the operator's warehouse or van, one per deployment (`depot-main`, created here), with its
 * stock per good keyed by depot so that several depots can come later.
 */
export class Depot1795630400000 implements MigrationInterface {
  name = 'Depot1795630400000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "depots" ("id" text NOT NULL, "name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d2b12c598f7da47275e8fb7c9fd" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE TABLE "depot_stock" ("depot_id" text NOT NULL, "sku_id" text NOT NULL, "quantity" integer NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_40967fe74f92eb7749cb6083f77" PRIMARY KEY ("depot_id", "sku_id"))`,
    );
    await q.query(`CREATE INDEX "idx_depot_stock_sku" ON "depot_stock" ("sku_id")`);
    await q.query(`INSERT INTO "depots" ("id", "name") VALUES ('depot-main', 'Depot')`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "depot_stock"`);
    await q.query(`DROP TABLE "depots"`);
  }
}
