/** The OpenAPI description of the fleet overview. */
import { ApiEndpoint } from '../../common/envelope/api-docs';
import { FleetResponse } from './fleet.responses';

export const FleetDocs = {
  overview: ApiEndpoint({
    operationId: 'fleet_overview',
    summary: 'Every machine at a glance (synced copy)',
    description:
      'One row per registered machine from the operator\'s synced copy: slots, sold-out slots, fill level, the time of its last inventory sync, and settled sales today and over 7 days (+08:00 calendar). No partner is called; `POST /locations/sync` refreshes the copy. The operator console\'s Fleet screen reads it.',
    type: FleetResponse,
    returns: '`machines[]` and `read_at`.',
    errors: {},
  }),
};
