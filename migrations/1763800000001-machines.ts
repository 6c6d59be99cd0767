import { MigrationInterface, QueryRunner } from 'typeorm';

/** Machines: the roster, the synced slots and the sales ledger copy. */
export class Machines1763800000001 implements MigrationInterface {
  name = 'Machines1763800000001';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "slots" ("id" text NOT NULL, "location_id" text NOT NULL, "namespace" text NOT NULL, "vendor_sku" text NOT NULL, "sku_id" text NOT NULL, "title" text NOT NULL, "barcode" text, "price_fen" bigint NOT NULL, "stock" integer NOT NULL, "capacity" integer, "partner_slot_id" text, "price_locked" boolean NOT NULL DEFAULT false, "synced_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8b553bb1941663b63fd38405e42" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "idx_slots_sku" ON "slots" ("sku_id")`);
    await q.query(`CREATE INDEX "idx_slots_location" ON "slots" ("location_id")`);
    await q.query(`CREATE TABLE "locations" ("id" text NOT NULL, "namespace" text NOT NULL, "name" text NOT NULL, "profile" jsonb NOT NULL DEFAULT '{}', "context" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7cc1c9e3853b94816c094825e74" PRIMARY KEY ("id"))`);
    await q.query(`CREATE TABLE "sale_orders" ("id" text NOT NULL, "namespace" text NOT NULL, "location_id" text NOT NULL, "total_fen" bigint NOT NULL, "taken_at" TIMESTAMP WITH TIME ZONE NOT NULL, "has_taken_at" boolean NOT NULL DEFAULT false, "settled_at" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE, "finalized" boolean, "trade_status" text, "trade_status_raw" text, "trade_status_label" text, "ingested_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ba301b7939d3333e8821ff92637" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "idx_sale_orders_updated" ON "sale_orders" ("updated_at", "id")`);
    await q.query(`CREATE INDEX "idx_sale_orders_location_taken" ON "sale_orders" ("location_id", "taken_at", "id")`);
    await q.query(`CREATE INDEX "idx_sale_orders_taken" ON "sale_orders" ("taken_at", "id")`);
    await q.query(`CREATE TABLE "sale_lines" ("order_id" text NOT NULL, "line_no" integer NOT NULL, "vendor_sku" text NOT NULL, "sku_id" text NOT NULL, "slot_id" text NOT NULL, "title" text, "quantity" integer NOT NULL, "price_fen" bigint NOT NULL, "status" text NOT NULL, "cost_fen" bigint, CONSTRAINT "PK_a31d9a61c5a86f59c47e1e9141b" PRIMARY KEY ("order_id", "line_no"))`);
    await q.query(`CREATE INDEX "idx_sale_lines_slot" ON "sale_lines" ("slot_id")`);
    await q.query(`ALTER TABLE "sale_lines" ADD CONSTRAINT "FK_fbeb10a3de2795d02b45407d1cd" FOREIGN KEY ("order_id") REFERENCES "sale_orders"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "sale_lines"`);
    await q.query(`DROP TABLE "sale_orders"`);
    await q.query(`DROP TABLE "locations"`);
    await q.query(`DROP TABLE "slots"`);
  }
}
