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
    return {
      read_at: toPlus8(now),
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
