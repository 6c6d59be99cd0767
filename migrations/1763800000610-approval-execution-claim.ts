import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Approvals: the claim of an execution (when the approval entered `executing`, and the decision being executed), so
 * an execution interrupted by a crash is recovered by reading its effect instead of staying `executing` forever.
 */
export class ApprovalExecutionClaim1763800000610 implements MigrationInterface {
  name = 'ApprovalExecutionClaim1763800000610';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "approvals" ADD "claimed_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "approvals" ADD "execution" jsonb`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "approvals" DROP COLUMN "execution"`);
    await q.query(`ALTER TABLE "approvals" DROP COLUMN "claimed_at"`);
  }
}
