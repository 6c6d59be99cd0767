import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { Errors } from '../common/errors/errors';
import { SalesSummaryRepository } from './sales-summary.repository';
import { dayRange, fillDays, plus8Day } from './sales-summary.rules';

/** Settled sale orders and their fen. */
export interface SalesTotal {
  orders: number;
  fen: number;
}

/** Daily settled sales over a range, with today's and the last 7 days' totals, read at `readAt`. */
export interface SalesDaily {
  readAt: Date;
  today: SalesTotal;
  last7Days: SalesTotal;
  days: ({ day: string } & SalesTotal)[];
  rangeTotal: SalesTotal;
}

const sum = (rows: SalesTotal[]): SalesTotal => ({ orders: rows.reduce((t, r) => t + r.orders, 0), fen: rows.reduce((t, r) => t + r.fen, 0) });

/** Daily settled sales with today's and the 7 days' totals (issue 30). */
@Injectable()
export class SalesSummaryService {
  constructor(
    private readonly repo: SalesSummaryRepository,
    private readonly clock: Clock,
  ) {}

  async daily(q: { from?: string; to?: string; location?: string }, now = this.clock.now()): Promise<SalesDaily> {
    const range = dayRange(q, now);
    if (!range.ok) throw Errors.invalid(range.path, range.text);
    const rows = fillDays(range.days, await this.repo.daily(range.from, range.to, q.location));
    const today = plus8Day(now);
    const week = dayRange({ from: plus8Day(new Date(now.getTime() - 6 * 86_400_000)), to: today }, now);
    const last7 = week.ok ? fillDays(week.days, await this.repo.daily(week.from, week.to, q.location)) : [];
    return { readAt: now, today: sum(last7.filter((d) => d.day === today)), last7Days: sum(last7), days: rows, rangeTotal: sum(rows) };
  }
}
