/** Response models of the budget standing (OpenAPI only). */
import { DateTime } from '../../common/envelope/api-docs';
import { PriceView, UcpEnvelope } from '../../common/envelope/envelope.responses';

export class BudgetLimitView {
  limit: PriceView;
}

export class BudgetSpentView {
  limit: PriceView;
  /** Spent (and held for orders being placed) in the period so far. */
  spent: PriceView;
}

export class BudgetStandingResponse extends UcpEnvelope {
  @DateTime()
  read_at: string;
  /** No single order may cost more. */
  per_order: BudgetLimitView;
  /** Today, 00:00 to 24:00 (+08:00). */
  daily: BudgetSpentView;
  /** This calendar month (+08:00). */
  monthly: BudgetSpentView;
}
