/** The OpenAPI description of the price audit. */
import { ApiEndpoint } from '../../common/envelope/api-docs';
import { PriceAuditResponse } from './price-audit.responses';

export const PriceAuditDocs = {
  list: ApiEndpoint({
    operationId: 'price_audit',
    summary: 'Slots whose machine price differs from the service\'s',
    description:
      'After each inventory sync, a slot whose synced machine price differs from the last price the service set or approved (its own `price.changed` events) is flagged here and recorded once as a `price.mismatch` event: a price changed at the machine by hand is seen. A flag clears when the prices agree again. Slots the service never priced are not audited.',
    type: PriceAuditResponse,
    returns: 'The standing flags.',
    errors: { 400: ['invalid'] },
  }),
};
