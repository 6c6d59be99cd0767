import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Restock requests on the money-claims core: the claim time (lease) of a request in `sending`, so a send
 * interrupted by a crash is recovered by reading the platform's GET /restock/{ref}, and how a recovered answer was
 * obtained (`read`, `unconfirmed`). A row already `sending` has no claim time and counts as expired.
 */
export class RestockClaimLease1763800000720 implements MigrationInterface {
  name = 'RestockClaimLease1763800000720';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "restock_orders" ADD "claimed_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "restock_orders" ADD "recovered" text`);
    await q.query(`CREATE INDEX "idx_restock_orders_claims" ON "restock_orders" ("status", "claimed_at") `);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."idx_restock_orders_claims"`);
    await q.query(`ALTER TABLE "restock_orders" DROP COLUMN "recovered"`);
    await q.query(`ALTER TABLE "restock_orders" DROP COLUMN "claimed_at"`);
  }
}
