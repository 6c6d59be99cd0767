import { MigrationInterface, QueryRunner } from 'typeorm';

/** Rate-limit counters shared by every instance on one database (issue 26): one row per bucket, its current window. */
export class RateLimitWindows1764090000100 implements MigrationInterface {
  name = 'RateLimitWindows1764090000100';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "rate_limit_windows" ("bucket" text NOT NULL, "window_start" bigint NOT NULL, "hits" integer NOT NULL, CONSTRAINT "PK_rate_limit_windows" PRIMARY KEY ("bucket"))`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "rate_limit_windows"`);
  }
}
