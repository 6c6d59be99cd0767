import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The span of the sales ledger already read in full per namespace (issue 25: a manual sync reads only what is new
 * since, with an overlap, instead of its whole window every time).
 */
export class LedgerCoverage1795631000000 implements MigrationInterface {
  name = 'LedgerCoverage1795631000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "sync_state" ADD "covered_from" TIMESTAMP WITH TIME ZONE, ADD "covered_to" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "sync_state" DROP COLUMN "covered_to", DROP COLUMN "covered_from"`);
  }
}
