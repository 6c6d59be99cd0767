import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 35: the demand cache keeps what sold on stocked-out days and the machine's first sale and reading days.
 * Computed windows are dropped: their empty-day counts had the old meaning (days without sales only).
 */
export class DemandCensoring1795631000000 implements MigrationInterface {
  name = 'DemandCensoring1795631000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "demand_cache_runs"`);
    await q.query(`DELETE FROM "demand_cache"`);
    await q.query(`ALTER TABLE "demand_cache" ADD "empty_units" bigint NOT NULL DEFAULT '0'`);
    await q.query(`ALTER TABLE "demand_cache" ADD "empty_sumsq" bigint NOT NULL DEFAULT '0'`);
    await q.query(`ALTER TABLE "demand_cache" ADD "first_snap_empty" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "demand_cache" ADD "machine_first_d" integer`);
    await q.query(`ALTER TABLE "demand_cache" ADD "machine_first_snap" integer`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "demand_cache_runs"`);
    for (const c of ['machine_first_snap', 'machine_first_d', 'first_snap_empty', 'empty_sumsq', 'empty_units']) {
      await q.query(`ALTER TABLE "demand_cache" DROP COLUMN "${c}"`);
    }
  }
}
