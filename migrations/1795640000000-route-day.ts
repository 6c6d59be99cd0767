import { MigrationInterface, QueryRunner } from 'typeorm';

/** The route day: each machine's route settings, and the visits drivers record. */
export class RouteDay1795640000000 implements MigrationInterface {
  name = 'RouteDay1795640000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "route_machine_settings" ("location_id" text NOT NULL, "stop_cost_fen" integer, "visit_days" jsonb, "site" text, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6170a1254b7fd14842765ad8996" PRIMARY KEY ("location_id"))`,
    );
    await q.query(
      `CREATE TABLE "machine_visits" ("id" text NOT NULL, "location_id" text NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL, "units_loaded" integer NOT NULL, "units_returned" integer NOT NULL, "slots" jsonb NOT NULL, "note" text, CONSTRAINT "PK_e92a28e1c9ebf0fe102eb64758b" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "idx_machine_visits_location" ON "machine_visits" ("location_id", "recorded_at")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "machine_visits"`);
    await q.query(`DROP TABLE "route_machine_settings"`);
  }
}
