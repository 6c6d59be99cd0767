import { MigrationInterface, QueryRunner } from 'typeorm';

/** Replenishment: stock snapshots per slot-day, recorded forecasts, runs and restock orders. */
export class Replenishment1763800000500 implements MigrationInterface {
  name = 'Replenishment1763800000500';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "replenishment_forecasts" ("id" BIGSERIAL NOT NULL, "slot_id" text NOT NULL, "location_id" text NOT NULL, "day" date NOT NULL, "made_at" TIMESTAMP WITH TIME ZONE NOT NULL, "rate_per_day" double precision NOT NULL, "measured" boolean NOT NULL, CONSTRAINT "PK_abd159e26efd97f77ab132d5464" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "idx_forecasts_made_at" ON "replenishment_forecasts" ("made_at")`);
    await q.query(`CREATE UNIQUE INDEX "uq_forecasts_slot_day" ON "replenishment_forecasts" ("slot_id", "day")`);
    await q.query(`CREATE TABLE "slot_stock_days" ("slot_id" text NOT NULL, "day" date NOT NULL, "min_stock" integer NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_179eb04675e4414df147fd272d4" PRIMARY KEY ("slot_id", "day"))`);
    await q.query(`CREATE TABLE "replenishment_runs" ("id" text NOT NULL, "status" text NOT NULL, "fulfiller" text NOT NULL, "fulfiller_kind" text NOT NULL, "cost_is_estimated" boolean NOT NULL, "total_cost_fen" bigint, "lines" jsonb NOT NULL, "approval_id" text, "supplier_order_id" text, "delivered" jsonb, "note" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "placed_at" TIMESTAMP WITH TIME ZONE, "delivered_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_cd5933b952ea76cdbfdeac17af2" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "idx_runs_fulfiller_delivered" ON "replenishment_runs" ("fulfiller", "delivered_at")`);
    await q.query(`CREATE INDEX "idx_runs_status_created" ON "replenishment_runs" ("status", "created_at")`);
    await q.query(`CREATE TABLE "restock_orders" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "namespace" text NOT NULL, "reference" text NOT NULL, "location_id" text NOT NULL, "binding" boolean NOT NULL, "lines" jsonb NOT NULL, "fingerprint" text NOT NULL, "status" text NOT NULL, "accepted" integer, "external_ref" text, "delivered" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "sent_at" TIMESTAMP WITH TIME ZONE, "completed_at" TIMESTAMP WITH TIME ZONE, "checked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_e3da45f94428eac52cb9759be8f" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "idx_restock_orders_completed" ON "restock_orders" ("namespace", "completed_at")`);
    await q.query(`CREATE INDEX "idx_restock_orders_open" ON "restock_orders" ("binding", "status")`);
    await q.query(`CREATE UNIQUE INDEX "uq_restock_orders_ref" ON "restock_orders" ("namespace", "reference")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "restock_orders"`);
    await q.query(`DROP TABLE "replenishment_runs"`);
    await q.query(`DROP TABLE "slot_stock_days"`);
    await q.query(`DROP TABLE "replenishment_forecasts"`);
  }
}
