/** The JSON of `GET /budget`, rendered at the edge from the standing (fen to CNY prices). */
import { cny } from '../../common/money';
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import { toPlus8 } from '../../common/time';
import type { BudgetStanding } from '../../guards/budget.service';
import type { BudgetStandingResponse } from './spending.responses';

export function renderBudgetStanding(s: BudgetStanding): ResponseBody<BudgetStandingResponse> {
  return {
    read_at: toPlus8(s.readAt),
    per_order: { limit: cny(s.budget.perOrderFen) },
    daily: { limit: cny(s.budget.dailyFen), spent: cny(s.dayFen) },
    monthly: { limit: cny(s.budget.monthlyFen), spent: cny(s.monthFen) },
  };
}
