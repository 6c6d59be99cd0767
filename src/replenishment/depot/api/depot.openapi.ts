/** The OpenAPI description of the depot. */
import { ApiEndpoint, describeProperty } from '../../../common/envelope/api-docs';
import { DepotCountBody, DepotFillBody, DepotQuery } from './depot.dto';
import { DepotCountResponse, DepotFillResponse, DepotResponse } from './depot.responses';

const CONFIRM = { type: Boolean, enum: [true], required: true, description: 'The JSON boolean `true`: a person decided this move.' };
describeProperty(DepotFillBody, 'confirm', CONFIRM);
describeProperty(DepotCountBody, 'confirm', CONFIRM);
// No texts of their own: the operation says how to page, and each text would also be in the MCP tools/list (a byte budget).
describeProperty(DepotQuery, 'limit', { required: false });
describeProperty(DepotQuery, 'cursor', { required: false });

const KEYED_ERRORS = {
  409: ['idempotency_key_mismatch', 'idempotency_key_in_use'],
  503: ['idempotency_unavailable'],
};

export const DepotDocs = {
  get: ApiEndpoint({
    operationId: 'depot_get',
    summary: 'What the depot holds, per good',
    description: 'Units bought beyond what the slots take. The plan serves slots from it (`from_depot`) before buying. Pages by sku id, `limit` goods (1 to 100, default 100) a page: follow `pagination.cursor`; `totals` cover the whole depot.',
    type: DepotResponse,
    returns: 'The depot, a page of its stock and its totals.',
    errors: { 400: ['invalid'], 404: ['not_found'] },
  }),
  fill: ApiEndpoint({
    operationId: 'depot_fill',
    summary: 'Move units from the depot into slots',
    description: 'Each slot gets units of its own good, at most what the depot holds and the slot has room for. Needs `confirm: true`.',
    headers: ['Idempotency-Key'],
    type: DepotFillResponse,
    returns: 'The depot after the fill, and what each slot got.',
    errors: {
      400: ['missing', 'invalid', 'confirmation_required', 'request_too_large'],
      404: ['not_found'],
      409: ['depot_insufficient', ...KEYED_ERRORS[409]],
      503: KEYED_ERRORS[503],
    },
  }),
  count: ApiEndpoint({
    operationId: 'depot_count',
    summary: 'Record a stock count of the depot',
    description: 'The counted quantities replace what the depot held; the reason and differences are recorded in an event. Only goods a synced slot sells or the depot holds (`invalid` otherwise). Units received beyond an order (`over_delivered`) are booked this way. Needs `confirm: true`.',
    headers: ['Idempotency-Key'],
    type: DepotCountResponse,
    returns: 'The depot after the count, and each good before and after.',
    errors: { 400: ['missing', 'invalid', 'confirmation_required', 'request_too_large'], 404: ['not_found'], ...KEYED_ERRORS },
  }),
};
