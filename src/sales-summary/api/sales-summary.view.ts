/** The UCP JSON of the daily sales, rendered at the edge (declared type: the response class). */
import { cny } from '../../common/money';
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import { toPlus8 } from '../../common/time';
import type { SalesDaily, SalesTotal } from '../sales-summary.service';
import type { SalesDailyResponse, SalesTotalView } from './sales-summary.responses';

function renderTotal(t: SalesTotal): SalesTotalView {
  return { orders: t.orders, total: cny(t.fen) };
}

export function renderSalesDaily(s: SalesDaily): ResponseBody<SalesDailyResponse> {
  return {
    read_at: toPlus8(s.readAt),
    today: renderTotal(s.today),
    last_7_days: renderTotal(s.last7Days),
    days: s.days.map((d) => ({ day: d.day, orders: d.orders, total: cny(d.fen) })),
    range_total: renderTotal(s.rangeTotal),
  };
}
