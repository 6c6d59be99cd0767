/** The OpenAPI description of the budget standing. */
import { ApiEndpoint } from '../../common/envelope/api-docs';
import { BudgetStandingResponse } from './spending.responses';

export const SpendingDocs = {
  standing: ApiEndpoint({
    operationId: 'budget_standing',
    summary: 'The budgets and what is spent against them',
    description:
      'The per-order, daily and monthly budgets of the guard rules, with the money spent (or held for orders being placed) today and this month on the +08:00 calendar. The Approvals screen shows it beside each request that passes a budget.',
    type: BudgetStandingResponse,
    returns: 'The limits and the spend.',
    errors: { 503: ['guard_unverifiable'] },
  }),
};
