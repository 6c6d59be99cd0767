/** The OpenAPI description of discovery, namespaces and the health probes. */
import { ApiEndpoint } from '../../common/envelope/api-docs';
import { DiscoveryProfileResponse, HealthResponse, NamespacesResponse, ReadyResponse } from './discovery.responses';

export const DiscoveryDocs = {
  profile: ApiEndpoint({
    operationId: 'discovery_profile',
    summary: 'The UCP profile (no token)',
    description:
      'Core. Start here: services (the REST endpoint and this document), capabilities with their versions (`com.example.svc.sku` lists the namespaces when the request carries the token; `com.example.svc.events` gives `websocket_url` and `asyncapi_url`) and payment handlers. Capabilities and namespaces are runtime facts: never hard-code vendors.',
    public: true,
    type: DiscoveryProfileResponse,
    returns: 'The profile document.',
    errors: { 404: ['not_found'] },
  }),
  namespaces: ApiEndpoint({
    operationId: 'namespaces_list',
    summary: 'The namespace registry and its defaults',
    description: 'Core. Every registered `<vendor>-supply` and `<vendor>-machine` namespace with its status and capabilities; a `planned` or misconfigured one answers `namespace_unsupported` (a `namespace_misconfigured` warning says why).',
    type: NamespacesResponse,
    returns: 'The namespaces and `defaults`.',
    errors: {},
  }),
};

export const HealthDocs = {
  live: ApiEndpoint({
    operationId: 'health_live',
    summary: 'Liveness probe (no token)',
    description: 'The process answers. No data.',
    public: true,
    type: HealthResponse,
    returns: 'Alive.',
    errors: {},
  }),
  ready: ApiEndpoint({
    operationId: 'health_ready',
    summary: 'Readiness probe (no token)',
    description: 'The database is reachable. No data.',
    public: true,
    type: ReadyResponse,
    returns: 'Ready.',
    errors: { 503: ['not_ready'] },
  }),
};
