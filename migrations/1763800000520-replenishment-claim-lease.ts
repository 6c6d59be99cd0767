import { MigrationInterface, QueryRunner } from 'typeorm';

/** Replenishment: the claim time (lease) of a run in `placing`, so a place interrupted by a crash can be recovered. */
export class ReplenishmentClaimLease1763800000520 implements MigrationInterface {
  name = 'ReplenishmentClaimLease1763800000520';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "replenishment_runs" ADD "claimed_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "replenishment_runs" DROP COLUMN "claimed_at"`);
  }
}
