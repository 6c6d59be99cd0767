import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { FleetRepository, FleetRow } from './fleet.repository';
import { salesWindows } from './fleet.rules';

/** The fleet at `readAt`: every machine's row, and the fleet's settled sales today and over 7 days. */
export interface FleetOverview {
  readAt: Date;
  today: { orders: number; fen: number };
  week: { orders: number; fen: number };
  machines: FleetRow[];
}

/** The fleet overview (issue 19): the roster joined with its synced slots and settled sales. */
@Injectable()
export class FleetService {
  constructor(
    private readonly repo: FleetRepository,
    private readonly clock: Clock,
  ) {}

  async overview(now = this.clock.now()): Promise<FleetOverview> {
    const { todayFrom, weekFrom } = salesWindows(now);
    const rows = await this.repo.overview(todayFrom, weekFrom);
    const sum = (f: (r: FleetRow) => number) => rows.reduce((t, r) => t + f(r), 0);
    // The fleet's settled sales, summed here so no client adds up machines (issue 30).
    return {
      readAt: now,
      today: { orders: sum((r) => r.today_count), fen: sum((r) => r.today_fen) },
      week: { orders: sum((r) => r.week_count), fen: sum((r) => r.week_fen) },
      machines: rows,
    };
  }
}
