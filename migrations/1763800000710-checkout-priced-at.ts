import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Checkout sessions: when the lines were last priced from the supplier catalog (create and every update). The
 * session's `expires_at` is that time plus its TTL; past it, the session is not ready until it is priced again.
 */
export class CheckoutPricedAt1763800000710 implements MigrationInterface {
  name = 'CheckoutPricedAt1763800000710';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "checkout_sessions" ADD "priced_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "checkout_sessions" DROP COLUMN "priced_at"`);
  }
}
