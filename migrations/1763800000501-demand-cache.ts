import { MigrationInterface, QueryRunner } from 'typeorm';

/** Replenishment: the per-window cache of per-slot demand aggregates. */
export class DemandCache1763800000501 implements MigrationInterface {
  name = 'DemandCache1763800000501';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "demand_cache" ("window_start" date NOT NULL, "slot_id" text NOT NULL, "units" bigint NOT NULL DEFAULT '0', "sumsq" bigint NOT NULL DEFAULT '0', "first_d" integer, "last_d" integer, "first_snap" integer, "empty_days" integer NOT NULL DEFAULT '0', "empty_after" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_7391f603465385d65fe0f15e24a" PRIMARY KEY ("window_start", "slot_id"))`);
    await q.query(`CREATE TABLE "demand_cache_runs" ("window_start" date NOT NULL, "window_days" integer NOT NULL, "valid_from" TIMESTAMP WITH TIME ZONE NOT NULL, "computed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "slots" integer NOT NULL, CONSTRAINT "PK_3b6a3c2f46c2fe9787c03992948" PRIMARY KEY ("window_start", "window_days"))`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "demand_cache_runs"`);
    await q.query(`DROP TABLE "demand_cache"`);
  }
}
