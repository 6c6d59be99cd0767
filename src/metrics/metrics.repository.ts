import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The reads of a metrics scrape (issue 28): counts only, on the DataSource (no transaction), one statement each. */
@Injectable()
export class MetricsRepository {
  constructor(private readonly ds: DataSource) {}

  async approvalsPending(): Promise<number> {
    const rows: { n: number }[] = await this.ds.query(`SELECT count(*)::int AS n FROM approvals WHERE status = 'pending'`);
    return rows[0].n;
  }

  /** The pool's connections now (pg's Pool under TypeORM's driver). */
  pool(): { max: number; total: number; idle: number; waiting: number } | null {
    const max = Number((this.ds.options.extra as { max?: number } | undefined)?.max ?? 10);
    const p = (this.ds.driver as unknown as { master?: { totalCount: number; idleCount: number; waitingCount: number } }).master;
    return p ? { max, total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount } : null;
  }
}
