/** The OpenAPI description of POST /ucp/v1/locations/sync (tagged with the locations routes). */
import { applyDecorators } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { ApiEndpoint } from '../../common/envelope/api-docs';
import { SyncResponse } from '../../locations/api/locations.responses';
import { SyncLocationsBody } from './sync.dto';

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
