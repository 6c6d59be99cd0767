import { MigrationInterface, QueryRunner } from 'typeorm';

/** Machines sync: sync bookkeeping (ticks, last outcomes) and the data warnings kept on sale orders. */
export class MachinesSync1763800000200 implements MigrationInterface {
  name = 'MachinesSync1763800000200';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "sync_state" ("job" text NOT NULL, "last_tick" bigint, "last_success_at" TIMESTAMP WITH TIME ZONE, "last_failure_at" TIMESTAMP WITH TIME ZONE, "last_error" text, CONSTRAINT "PK_2d1569f7d3732daf504784864ad" PRIMARY KEY ("job"))`);
    await q.query(`ALTER TABLE "sale_orders" ADD "data_warnings" jsonb`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "sale_orders" DROP COLUMN "data_warnings"`);
    await q.query(`DROP TABLE "sync_state"`);
  }
}
