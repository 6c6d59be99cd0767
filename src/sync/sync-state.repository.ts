import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { readRows } from '../database/raw-read';
import { Tx } from '../database/tx';

export interface SyncStateRecord {
  job: string;
  lastTick: number | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  lastError: string | null;
}

/** Sync bookkeeping (`sync_state`). Queries only; writes in the current transaction (Tx), the hot read on the pool. */
@Injectable()
export class SyncStateRepository {
  constructor(
    private readonly ds: DataSource,
    private readonly tx: Tx,
  ) {}

  /** Atomically claims tick `tick` of `job`; false when this or a later tick was already claimed (by any instance). */
  async claimTick(job: string, tick: number): Promise<boolean> {
    const rows = (await this.tx.manager.query(
      `INSERT INTO sync_state AS s (job, last_tick) VALUES ($1, $2)
       ON CONFLICT (job) DO UPDATE SET last_tick = EXCLUDED.last_tick
       WHERE s.last_tick IS NULL OR s.last_tick < EXCLUDED.last_tick
       RETURNING s.job`,
      [job, tick],
    )) as unknown[];
    return rows.length === 1;
  }

  async recordSuccess(job: string, at: Date): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO sync_state AS s (job, last_success_at) VALUES ($1, $2)
       ON CONFLICT (job) DO UPDATE SET last_success_at = GREATEST(s.last_success_at, EXCLUDED.last_success_at)`,
      [job, at.toISOString()],
    );
  }

  async recordFailure(job: string, at: Date, error: string): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO sync_state AS s (job, last_failure_at, last_error) VALUES ($1, $2, $3)
       ON CONFLICT (job) DO UPDATE SET last_failure_at = GREATEST(s.last_failure_at, EXCLUDED.last_failure_at), last_error = EXCLUDED.last_error`,
      [job, at.toISOString(), error.slice(0, 1000)],
    );
  }

  async get(job: string): Promise<SyncStateRecord | null> {
    // On every GET /orders (the staleness warning): straight on the pool (issue 13).
    const rows = await readRows<{
      job: string;
      last_tick: string | null;
      last_success_at: Date | null;
      last_failure_at: Date | null;
      last_error: string | null;
    }>(this.ds, `SELECT * FROM sync_state WHERE job = $1`, [job]);
    if (!rows.length) return null;
    const r = rows[0];
    return {
      job: r.job,
      lastTick: r.last_tick === null ? null : Number(r.last_tick),
      lastSuccessAt: r.last_success_at ? new Date(r.last_success_at) : null,
      lastFailureAt: r.last_failure_at ? new Date(r.last_failure_at) : null,
      lastError: r.last_error,
    };
  }
}
