import { Injectable } from '@nestjs/common';
import { toPlus8, toPlus8OrNull } from '../common/time';
import { cny } from '../catalog/variant.rules';
import { FleetRepository } from './fleet.repository';
import { fillPercent, salesWindows } from './fleet.rules';

/** The fleet overview (issue 19): the roster joined with its synced slots and settled sales. */
@Injectable()
export class FleetService {
  constructor(private readonly repo: FleetRepository) {}

  async overview(now = new Date()) {
    const { todayFrom, weekFrom } = salesWindows(now);
    const rows = await this.repo.overview(todayFrom, weekFrom);
    const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((t, r) => t + f(r), 0);
    return {
      read_at: toPlus8(now),
      // The fleet's settled sales, summed here so no client adds up machines (issue 30).
      totals: {
        sales_today: { orders: sum((r) => r.today_count), total: cny(sum((r) => r.today_fen)) },
        sales_7d: { orders: sum((r) => r.week_count), total: cny(sum((r) => r.week_fen)) },
      },
      machines: rows.map((r) => ({
        id: r.id,
        name: r.name,
        namespace: r.namespace,
        slots: r.slots,
        sold_out_slots: r.sold_out,
        stock: r.stock,
        capacity: r.capacity,
        fill_percent: fillPercent(r.stock_with_capacity, r.capacity),
        last_synced_at: toPlus8OrNull(r.last_synced_at),
        sales_today: { orders: r.today_count, total: cny(r.today_fen) },
        sales_7d: { orders: r.week_count, total: cny(r.week_fen) },
      })),
    };
  }
}
