/** The OpenAPI description of locations, live inventory and sync. */
import { applyDecorators } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { ApiEndpoint } from '../common/api-docs';
import { SyncLocationsBody } from '../sync/sync.dto';
import { LiveInventoryResponse, LocationPutResponse, LocationRemoveResponse, LocationSearchResponse, SyncResponse } from './locations.responses';

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

export const SyncDocs = {
  syncNow: applyDecorators(
    ApiBody({ type: SyncLocationsBody, required: false, description: 'Optional.' }),
    ApiEndpoint({
    operationId: 'locations_sync',
    summary: 'Pull inventory and sales of every machine now',
    description: 'Core. The body is optional (`sales_window_days`, integer, at least 21, default 30). Partial failures answer 200 with `recoverable` messages; 502 only when nothing could be read. One sync runs at a time per deployment: a request sent while one with the same `sales_window_days` runs on this instance waits for it and gets its answer; otherwise (another window, or a sync running on another instance) 409 `sync_in_progress`.',
    type: SyncResponse,
    returns: 'Counts of what was read.',
    errors: { 400: ['invalid', 'request_too_large'], 409: ['sync_in_progress'], 502: ['upstream_unreachable'] },
    }),
  ),
};
