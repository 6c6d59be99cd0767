import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Slots: the item's reference price of the day (issue 26): the per-item price cap holds against it, so a price cannot
 * be walked up in small steps. Null until the service first changes the price on a day.
 */
export class PriceReference1764090000000 implements MigrationInterface {
  name = 'PriceReference1764090000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "slots" ADD "price_reference_fen" bigint`);
    await q.query(`ALTER TABLE "slots" ADD "price_reference_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "slots" ADD "price_reference_source" text`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "slots" DROP COLUMN "price_reference_source"`);
    await q.query(`ALTER TABLE "slots" DROP COLUMN "price_reference_at"`);
    await q.query(`ALTER TABLE "slots" DROP COLUMN "price_reference_fen"`);
  }
}
