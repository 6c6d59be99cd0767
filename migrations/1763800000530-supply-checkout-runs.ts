import { MigrationInterface, QueryRunner } from 'typeorm';

/** Supply-checkout runs: a checkout session opened by a replenishment run names it (its purchase orders, its approval). */
export class SupplyCheckoutRuns1763800000530 implements MigrationInterface {
  name = 'SupplyCheckoutRuns1763800000530';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "checkout_sessions" ADD "run_id" text`);
    await q.query(`CREATE INDEX "idx_checkout_sessions_run" ON "checkout_sessions" ("run_id") `);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."idx_checkout_sessions_run"`);
    await q.query(`ALTER TABLE "checkout_sessions" DROP COLUMN "run_id"`);
  }
}
