/** The OpenAPI description of restock requests. */
import { ApiEndpoint } from '../common/api-docs';
import { RestockResponse } from './restock.responses';

export const RestockDocs = {
  send: ApiEndpoint({
    operationId: 'restock_send',
    summary: 'Send a restock recommendation or order to a machine platform',
    description:
      '`binding: false` (default) is a recommendation (`reason` required, capability `replenishment.recommend`); `binding: true` is an order the platform executes and reports on (`replenishment.order`). ' +
      'No money moves, but the kill switch applies (409 `kill_switch_engaged`). `reference` is idempotent: a repeat returns the stored answer without calling the platform; another body under it is 409 `reference_conflict`. An `Idempotency-Key` replays the first answer of the same request.',
    headers: ['Idempotency-Key'],
    type: RestockResponse,
    returns: 'What the platform accepted.',
    errors: {
      400: ['missing', 'invalid', 'namespace_mismatch', 'namespace_unsupported', 'request_too_large'],
      404: ['not_found'],
      409: ['kill_switch_engaged', 'reference_conflict', 'restock_in_progress', 'idempotency_key_mismatch', 'idempotency_key_in_use'],
      503: ['idempotency_unavailable'],
      502: ['upstream_unreachable', 'upstream_rejected'],
    },
  }),
};
