/** The OpenAPI description of the event log. */
import { ApiEndpoint, describeProperty } from '../../common/envelope/api-docs';
import { ListEventsQuery } from './events.dto';
import { EventCreatedResponse, EventsListResponse } from './events.responses';

describeProperty(ListEventsQuery, 'limit', { required: false, default: 50 });

export const EventsDocs = {
  list: ApiEndpoint({
    operationId: 'events_list',
    summary: 'Read the event log (newest first)',
    description: 'Core. The audit line of decisions, sales and errors. For a live feed use the WebSocket at `websocket_url` of the `com.example.svc.events` capability (its protocol: `config.asyncapi_url`).',
    type: EventsListResponse,
    returns: 'The events, newest first.',
    errors: { 400: ['invalid'] },
  }),
  create: ApiEndpoint({
    operationId: 'events_create',
    summary: 'Append an event (your reasoning, a note)',
    description: 'Records what an agent or an operator decided and why. No deduplication: idempotency is the producer\'s job.',
    status: 201,
    type: EventCreatedResponse,
    returns: 'The stored event, with `id` and `occurred_at`.',
    errors: { 400: ['missing', 'invalid', 'request_too_large'] },
  }),
};
