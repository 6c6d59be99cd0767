import { Injectable } from '@nestjs/common';
import { cny } from '../catalog/variant.rules';
import { Errors } from '../common/errors';
import { toPlus8 } from '../common/time';
import { SalesSummaryRepository } from './sales-summary.repository';
import { dayRange, fillDays, plus8Day } from './sales-summary.rules';

const sum = (rows: { orders: number; fen: number }[]) => ({ orders: rows.reduce((t, r) => t + r.orders, 0), total: cny(rows.reduce((t, r) => t + r.fen, 0)) });

/** Daily settled sales with today's and the 7 days' totals (issue 30). */
@Injectable()
export class SalesSummaryService {
  constructor(private readonly repo: SalesSummaryRepository) {}

  async daily(q: { from?: string; to?: string; location?: string }, now = new Date()) {
    const range = dayRange(q, now);
    if (!range.ok) throw Errors.invalid(range.path, range.text);
    const rows = fillDays(range.days, await this.repo.daily(range.from, range.to, q.location));
    const today = plus8Day(now);
    const week = dayRange({ from: plus8Day(new Date(now.getTime() - 6 * 86_400_000)), to: today }, now);
    const last7 = week.ok ? fillDays(week.days, await this.repo.daily(week.from, week.to, q.location)) : [];
    return {
      read_at: toPlus8(now),
      today: sum(last7.filter((d) => d.day === today)),
      last_7_days: sum(last7),
      days: rows.map((d) => ({ day: d.day, orders: d.orders, total: cny(d.fen) })),
      range_total: sum(rows),
    };
  }
}
