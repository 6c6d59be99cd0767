import { MigrationInterface, QueryRunner } from 'typeorm';

/** Approvals: who asked (issue 30): the channel, credential and agent of the request that created it; null before. */
export class ApprovalRequester1795629281157 implements MigrationInterface {
  name = 'ApprovalRequester1795629281157';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "approvals" ADD "requested_by" jsonb`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "approvals" DROP COLUMN "requested_by"`);
  }
}
