/** The OpenAPI description of locations and live inventory (sync: sync/sync.openapi.ts). */
import { ApiEndpoint } from '../../common/envelope/api-docs';
import { LiveInventoryResponse } from '../../inventory/api/inventory.responses';
import { LocationPutResponse, LocationRemoveResponse, LocationSearchResponse } from './locations.responses';

export const LocationsDocs = {
  search: ApiEndpoint({
    operationId: 'locations_search',
    summary: 'Find machines (locations)',
    description: 'Core. `filters.items`: the machine carries every listed id; `amenities` must all match; `hours` is accepted but not applied. Page size 50 by default, 100 at most.',
    type: LocationSearchResponse,
    returns: 'Locations and `pagination`.',
    errors: { 400: ['missing', 'invalid', 'request_too_large'] },
  }),
  put: ApiEndpoint({
    operationId: 'locations_put',
    summary: 'Register or update a machine',
    description: 'The id is the machine platform\'s id (`^[A-Za-z0-9._-]{1,64}$`); `namespace` defaults to the default machine namespace.',
    type: LocationPutResponse,
    returns: 'The location.',
    errors: { 400: ['missing', 'invalid', 'namespace_unsupported', 'request_too_large'] },
  }),
  remove: ApiEndpoint({
    operationId: 'locations_delete',
    summary: 'Remove a machine from the roster',
    description: 'Purges its profile, context and telemetry (slots); its sales and events are kept.',
    type: LocationRemoveResponse,
    returns: 'What was purged.',
    errors: { 400: ['invalid'], 404: ['not_found'] },
  }),
  inventory: ApiEndpoint({
    operationId: 'locations_inventory',
    summary: 'Read a machine\'s shelves live',
    description: 'Reads the machine platform now, never cached (catalog search reads the synced copy instead). Read-only: not confirm-gated, not blocked by the kill switch.',
    type: LiveInventoryResponse,
    returns: 'The live items.',
    errors: { 400: ['invalid', 'namespace_unsupported'], 404: ['not_found'], 502: ['upstream_unreachable'] },
  }),
};
