import { Injectable } from '@nestjs/common';
import { Tx } from '../../database/tx';

/** When runs were placed and machines visited lately: the plan's measured cadences (cadence.rules). Queries only. */
@Injectable()
export class CadenceRepository {
  constructor(private readonly tx: Tx) {}

  /** Times the newest runs were placed, from `since` to `until` (at most 30). */
  async placedTimes(since: Date, until: Date): Promise<Date[]> {
    const rows = (await this.tx.manager.query(
      `SELECT placed_at FROM replenishment_runs WHERE placed_at >= $1 AND placed_at <= $2 ORDER BY placed_at DESC LIMIT 30`,
      [since, until],
    )) as { placed_at: Date | string }[];
    return rows.map((r) => new Date(r.placed_at));
  }

  /** Times machines were visited, from `since` to `until`, per location. */
  async visitTimes(since: Date, until: Date): Promise<Map<string, Date[]>> {
    const rows = (await this.tx.manager.query(
      `SELECT location_id, recorded_at FROM machine_visits WHERE recorded_at >= $1 AND recorded_at <= $2 AND units_loaded > 0 ORDER BY recorded_at`,
      [since, until],
    )) as { location_id: string; recorded_at: Date | string }[];
    const out = new Map<string, Date[]>();
    for (const r of rows) out.set(r.location_id, [...(out.get(r.location_id) ?? []), new Date(r.recorded_at)]);
    return out;
  }
}
