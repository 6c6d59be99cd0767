/** The OpenAPI description of restock requests. */
import { ApiEndpoint } from '../../common/envelope/api-docs';
import { RestockResponse } from './restock.responses';

export const RestockDocs = {
  send: ApiEndpoint({
    operationId: 'restock_send',
    summary: 'Send a restock recommendation or order to a machine platform',
    description:
      '`binding: false` (default) is a recommendation (`reason` required, capability `replenishment.recommend`); `binding: true` is an order the platform executes and reports on (`replenishment.order`). ' +
      'No money moves, but the kill switch applies (409 `kill_switch_engaged`). `reference` is idempotent: a repeat returns the stored answer without calling the platform; another body under it is 409 `reference_conflict`. ' +
      'The platform is called once per reference: a send whose answer was never recorded (its process died, or the call got no usable answer) is settled by READING the platform\'s `GET /restock/{ref}` on a resend (after the claim\'s lease of max(2 min, 2 × partner timeout) when its process died) and every minute, never by sending again; while that read gives no usable answer the resend is 409 `restock_in_progress`. ' +
      'A recovered answer carries an info `restock_recovered`; a recommendation to a platform without `replenishment.order` (which cannot be asked) answers `accepted: 0` with a warning `restock_unconfirmed` and is never sent again. An `Idempotency-Key` replays the first answer of the same request.',
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
