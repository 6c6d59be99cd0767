import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events: who wrote each one (`service` or `client`, issue 17), so a posted `approval.resolved` never passes for one
 * the service recorded. Existing rows: a client's posted event never carried `data` (POST /events has no such field),
 * so a row with `data` is the service's; a row without it is marked `client`, the safe side, even where the service
 * wrote it (a few kinds were recorded without data): an unproven event is never presented as the service's.
 */
export class EventSource1763800000730 implements MigrationInterface {
  name = 'EventSource1763800000730';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "events" ADD "source" text`);
    await q.query(`UPDATE "events" SET "source" = CASE WHEN "data" IS NOT NULL THEN 'service' ELSE 'client' END`);
    await q.query(`ALTER TABLE "events" ALTER COLUMN "source" SET NOT NULL`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "events" DROP COLUMN "source"`);
  }
}
