/**
 * The AsyncAPI 3 document of the event socket (docs/contract/): connect, authenticate, subscribe, the event
 * message and the close codes. Built from the gateway's own constants; served at /ucp/v1/events/asyncapi.json and
 * linked from the `com.example.svc.events` capability in discovery.
 */
import { EVENT_SOURCES, SERVICE_EVENT_KINDS } from '../event-kinds';
import { MAX_FILTER_KINDS } from '../events-socket.rules';
import {
  EVENTS_WS_PATH,
  WS_AUTH_TIMEOUT_MS,
  WS_CLOSE_AUTH_NOT_CONFIGURED,
  WS_CLOSE_FORBIDDEN_ORIGIN,
  WS_CLOSE_RATE_LIMITED,
  WS_CLOSE_SLOW_CONSUMER,
  WS_CLOSE_UNAUTHORIZED,
  WS_MAX_PAYLOAD_BYTES,
  WS_MAX_UNAUTHENTICATED_PER_ADDRESS,
} from './events.gateway';

export const ASYNCAPI_PATH = '/ucp/v1/events/asyncapi.json';


const CLOSE_CODES: Record<number, string> = {
  [WS_CLOSE_UNAUTHORIZED]: `unauthorized: wrong token, no authentication within ${WS_AUTH_TIMEOUT_MS / 1000} s, a first message that is not \`auth\`, a credential in the URL, or the console session of the cookie was signed out or expired`,
  [WS_CLOSE_RATE_LIMITED]: `rate_limited: the client address is over the rate limit (a right token included), or ${WS_MAX_UNAUTHENTICATED_PER_ADDRESS} of its sockets already wait for authentication`,
  [WS_CLOSE_FORBIDDEN_ORIGIN]: 'the auth cookie was presented from a foreign page origin',
  [WS_CLOSE_AUTH_NOT_CONFIGURED]: 'the deployment has no operator token configured',
  [WS_CLOSE_SLOW_CONSUMER]: 'the client fell more than 8 MiB behind',
  1009: `a client frame was larger than ${WS_MAX_PAYLOAD_BYTES / 1024} KiB`,
};

const ref = (kind: 'schemas' | 'messages' | 'securitySchemes', name: string) => ({ $ref: `#/components/${kind}/${name}` });
const typed = (type: string, properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: 'object',
  required: ['type', ...required],
  properties: { type: { type: 'string', const: type }, ...properties },
});

function message(name: string, title: string, summary: string, payload: string, example: Record<string, unknown>) {
  return { name, title, summary, contentType: 'application/json', payload: ref('schemas', payload), examples: [{ name, payload: example }] };
}

/** The document for a service reached at `base` (http(s)://host[:port]). */
export function buildAsyncApiDocument(base: string): Record<string, unknown> {
  const url = new URL(base);
  const secure = url.protocol === 'https:';
  const closeText = Object.entries(CLOSE_CODES).map(([code, why]) => `\`${code}\`: ${why}`).join('; ');
  const messages: Record<string, unknown> = {
    auth: message('auth', 'Authenticate', `The first message when the upgrade carried no token; within ${WS_AUTH_TIMEOUT_MS / 1000} s.`, 'AuthMessage', { type: 'auth', token: '<operator token>' }),
    subscribe: message('subscribe', 'Subscribe', 'Replaces the filter (by default every event). `kinds: []` is invalid: omit it for every kind.', 'SubscribeMessage', { type: 'subscribe', kinds: ['checkout.completed', 'price.changed'], location: 'sim-loc-01' }),
    ping: message('ping', 'Ping', 'Application-level ping; the server answers `pong`.', 'PingMessage', { type: 'ping' }),
    authenticated: message('authenticated', 'Authenticated', 'The connection is authenticated; events follow.', 'AuthenticatedMessage', { type: 'authenticated' }),
    subscribed: message('subscribed', 'Subscribed', 'The filter now in force (null = any).', 'SubscribedMessage', { type: 'subscribed', kinds: ['checkout.completed'], location: null }),
    event: message('event', 'Event', 'One stored event, in storage order, from every instance of the service.', 'EventMessage', {
      type: 'event',
      event: { id: '457f4775-2746-4b2f-a5ba-86287611fbce', occurred_at: '2026-11-23T22:51:53.400+08:00', kind: 'restock.sent', source: 'service', summary: 'restock order r-1 sent to sim-machine for sim-loc-01', reasoning: '1 line(s), 1 accepted', location: 'sim-loc-01', data: { reference: 'r-1' } },
    }),
    pong: message('pong', 'Pong', 'Answer to `ping`.', 'PongMessage', { type: 'pong' }),
    error: message('error', 'Error', 'A refused message (`invalid`), or the reason sent just before the server closes the socket.', 'ErrorMessage', { type: 'error', code: 'invalid', content: '$.kinds must list at least one kind (omit it for every kind)' }),
  };
  const channelMessage = (name: string) => ({ $ref: `#/channels/events/messages/${name}` });
  const op = (action: 'send' | 'receive', name: string, summary: string) => ({ action, channel: { $ref: '#/channels/events' }, summary, messages: [channelMessage(name)] });
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Vending commerce service: event socket',
      version: '2026-09-10',
      description:
        'Live feed of the event log (`GET /ucp/v1/events`). Authenticate with the `Authorization: Bearer` header or the auth cookie on the upgrade request, or with a first `auth` message; a token in the URL is refused. ' +
        `Once authenticated the client receives every event stored afterwards, in order; \`subscribe\` narrows it. Client messages are JSON text frames of at most ${WS_MAX_PAYLOAD_BYTES / 1024} KiB. Close codes: ${closeText}.`,
    },
    defaultContentType: 'application/json',
    servers: {
      service: {
        host: url.host,
        protocol: secure ? 'wss' : 'ws',
        description: 'The service itself (the socket shares the HTTP port).',
        security: [ref('securitySchemes', 'bearer'), ref('securitySchemes', 'cookie')],
      },
    },
    channels: {
      events: {
        address: EVENTS_WS_PATH,
        title: 'Event socket',
        description: `One socket per client. Close codes: ${closeText}.`,
        messages,
        'x-close-codes': CLOSE_CODES,
      },
    },
    operations: {
      sendAuth: op('send', 'auth', 'Authenticate with the operator token (when the upgrade carried none).'),
      sendSubscribe: op('send', 'subscribe', 'Choose which events to receive.'),
      sendPing: op('send', 'ping', 'Check the connection.'),
      receiveAuthenticated: op('receive', 'authenticated', 'Authentication accepted.'),
      receiveSubscribed: op('receive', 'subscribed', 'The filter in force.'),
      receiveEvent: op('receive', 'event', 'An event of the log.'),
      receivePong: op('receive', 'pong', 'Answer to ping.'),
      receiveError: op('receive', 'error', 'A refusal, or why the socket is being closed.'),
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The operator token on the upgrade request.' },
        cookie: { type: 'httpApiKey', in: 'cookie', name: '<SERVICE_NAME>_auth', description: 'The operator token as the auth cookie, honoured only without an Origin or from the service\'s own or an allowed dashboard origin.' },
      },
      schemas: {
        AuthMessage: typed('auth', { token: { type: 'string', minLength: 1, maxLength: 4096 } }, ['token']),
        SubscribeMessage: typed('subscribe', {
          kinds: { type: 'array', minItems: 1, maxItems: MAX_FILTER_KINDS, items: { type: 'string', minLength: 1, maxLength: 200 }, description: 'Only these kinds (omit for every kind).' },
          location: { type: 'string', minLength: 1, maxLength: 64, description: 'Only events of this location.' },
        }),
        PingMessage: typed('ping'),
        AuthenticatedMessage: typed('authenticated'),
        SubscribedMessage: typed('subscribed', { kinds: { type: ['array', 'null'], items: { type: 'string' } }, location: { type: ['string', 'null'] } }, ['kinds', 'location']),
        EventMessage: typed('event', { event: ref('schemas', 'Event') }, ['event']),
        PongMessage: typed('pong'),
        ErrorMessage: typed('error', { code: { type: 'string', description: '`invalid`, `unauthorized`, `forbidden`, `auth_not_configured`, `rate_limited`.' }, content: { type: 'string' } }, ['code', 'content']),
        ServiceEventKind: { type: 'string', enum: [...SERVICE_EVENT_KINDS], description: 'Every kind of event the service records itself.' },
        Event: {
          type: 'object',
          required: ['id', 'occurred_at', 'kind', 'source', 'summary', 'reasoning'],
          // A service event's kind is one of the closed list; a client's is free.
          if: { properties: { source: { const: 'service' } }, required: ['source'] },
          then: { properties: { kind: ref('schemas', 'ServiceEventKind') } },
          properties: {
            id: { type: 'string' },
            occurred_at: { type: 'string', format: 'date-time' },
            kind: { type: 'string', description: 'With `source: "service"` one of `ServiceEventKind`; a posted event\'s kind is free.' },
            source: { type: 'string', enum: [...EVENT_SOURCES], description: '`service`: recorded by the service itself; `client`: posted through `POST /events`, whatever its kind.' },
            summary: { type: 'string' },
            reasoning: { type: 'string' },
            location: { type: 'string' },
            data: { type: 'object', additionalProperties: true, description: 'Structured details (ids, amounts); never tokens.' },
          },
        },
      },
    },
  };
}
