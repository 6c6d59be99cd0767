/** The OpenAPI description of the daily sales. */
import { ApiEndpoint } from '../../common/envelope/api-docs';
import { SalesDailyResponse } from './sales-summary.responses';

export const SalesSummaryDocs = {
  daily: ApiEndpoint({
    operationId: 'sales_daily',
    summary: 'Settled sales per day, today and over 7 days',
    description:
      'Settled sales summed by the service per +08:00 calendar day over `from`..`to` (default the 14 days ending today; never after today; at most 366 days), with today\'s and the last 7 days\' totals, for the whole fleet or one machine. Reads the synced ledger copy.',
    type: SalesDailyResponse,
    returns: 'The days and the totals.',
    errors: { 400: ['invalid'] },
  }),
};
