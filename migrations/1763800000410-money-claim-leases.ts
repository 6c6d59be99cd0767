import { MigrationInterface, QueryRunner } from 'typeorm';

/** Money paths: claim times (leases) of complete_in_progress sessions and of in-flight idempotency keys. */
export class MoneyClaimLeases1763800000410 implements MigrationInterface {
  name = 'MoneyClaimLeases1763800000410';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "checkout_sessions" ADD "claimed_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "idempotency_keys" ADD "claimed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`);
    await q.query(`ALTER TABLE "idempotency_keys" ADD "claim_id" text`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "claim_id"`);
    await q.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "claimed_at"`);
    await q.query(`ALTER TABLE "checkout_sessions" DROP COLUMN "claimed_at"`);
  }
}
