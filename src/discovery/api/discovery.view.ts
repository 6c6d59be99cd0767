/**
 * The UCP profile (`/.well-known/ucp`) and the namespace registry, rendered from the registry as it stands. The profile
 * is a protocol document (UCP's shape), not a resource view: it is built here by a pure function typed by its response
 * class, from what the service reads.
 */
import { CAPABILITY_VERSIONS, UCP_CAPABILITY_VERSIONS, UCP_VERSION, warning, UcpMessage } from '../../common/envelope/envelope';
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import { MCP_PATH, MCP_SCHEMA_PATH } from '../../common/mcp-paths';
import { AGENT_SCOPES, AUTHORIZATION_SERVER_PATH, PROTECTED_RESOURCE_PATH } from '../../oauth/oauth.rules';
import { paymentHandlers } from '../../common/envelope/payment-handlers';
import { ASYNCAPI_PATH } from '../../events/api/asyncapi';
import { capabilitySchemaUrl } from '../capability-schemas.rules';
import { API_PREFIX, INTERFACE_VERSION, RegistryState } from '../discovery.service';
import type { DiscoveryProfileResponse, NamespacesResponse } from './discovery.responses';

/** UCP's specification pages of the version the service speaks (the `spec` of UCP's own service and capabilities). */
const UCP_SPEC = `https://ucp.dev/${UCP_VERSION}/specification`;
const UCP_SPEC_OF: Record<string, string> = {
  'dev.ucp.shopping.checkout': `${UCP_SPEC}/checkout/`,
  'dev.ucp.shopping.catalog.search': `${UCP_SPEC}/catalog/`,
  'dev.ucp.shopping.catalog.lookup': `${UCP_SPEC}/catalog/`,
};

/**
 * `tokenHolder`: the request carried a valid credential. The partner namespaces (vendors and roles) are listed to
 * token holders only (issue 26): an anonymous client can call nothing that takes a namespace, and the list tells an
 * outsider whom the operator buys from. Anonymous readers get the same shape with empty lists.
 */
export function renderProfile(r: RegistryState, base: string, tokenHolder: boolean, externalIssuer: string | null = null): DiscoveryProfileResponse {
  const authorization = {
    protected_resource_metadata: `${base}${PROTECTED_RESOURCE_PATH}`,
    // The built-in server's metadata, or the outside server's (RFC 8414: the well-known path inserted before the issuer's path).
    authorization_server_metadata: externalIssuer ? rfc8414Url(externalIssuer) : `${base}${AUTHORIZATION_SERVER_PATH}`,
    scopes: [...AGENT_SCOPES],
  };
  const live = r.entries.filter((e) => e.status === 'live' && !e.problem);
  const capabilities: Record<string, { version: string; spec?: string; schema: string; config?: Record<string, unknown> }[]> = {};
  // UCP's own capabilities first (a UCP client finds checkout and catalog by their UCP names), then the extensions.
  for (const [name, version] of Object.entries({ ...UCP_CAPABILITY_VERSIONS, ...CAPABILITY_VERSIONS })) {
    const entry: { version: string; spec?: string; schema: string; config?: Record<string, unknown> } = { version, ...(UCP_SPEC_OF[name] ? { spec: UCP_SPEC_OF[name] } : {}), schema: capabilitySchemaUrl(base, name) };
    if (name === 'com.example.svc.sku') {
      entry.config = tokenHolder
        ? { namespaces: r.entries.map((e) => ({ namespace: e.namespace, vendor: e.vendor, role: e.role, status: e.status })), vendors: [...new Set(live.map((e) => e.vendor))] }
        : { namespaces: [], vendors: [], listed_to: 'token holders' };
    }
    if (name === 'com.example.svc.events') {
      entry.config = { websocket_url: `${base.replace(/^http/, 'ws')}${API_PREFIX}/events/ws`, asyncapi_url: `${base}${ASYNCAPI_PATH}` };
    }
    capabilities[name] = [entry];
  }
  return {
    ucp: {
      version: UCP_VERSION,
      status: 'success' as const,
      services: {
        // UCP's shopping service: the same two endpoints, under the name a UCP client looks for.
        'dev.ucp.shopping': [
          { version: UCP_VERSION, spec: `${UCP_SPEC}/overview/`, transport: 'rest', endpoint: `${base}${API_PREFIX}`, schema: `${base}${API_PREFIX}/openapi.json` },
          { version: UCP_VERSION, spec: `${UCP_SPEC}/overview/`, transport: 'mcp', endpoint: `${base}${MCP_PATH}`, schema: `${base}${MCP_SCHEMA_PATH}` },
        ],
        'com.example.svc': [
          {
            version: UCP_VERSION,
            transport: 'rest',
            endpoint: `${base}${API_PREFIX}`,
            schema: `${base}${API_PREFIX}/openapi.json`,
            interface_version: INTERFACE_VERSION,
            authorization,
          },
          {
            version: UCP_VERSION,
            transport: 'mcp',
            endpoint: `${base}${MCP_PATH}`,
            schema: `${base}${MCP_SCHEMA_PATH}`,
            interface_version: INTERFACE_VERSION,
            authorization,
          },
        ],
      },
      capabilities,
      payment_handlers: paymentHandlers(),
    },
    environment: r.environment,
    messages: [] as UcpMessage[],
  };
}

/** The namespace registry; a misconfigured namespace is listed with a warning (its `messages` go to the envelope). */
export function renderNamespaces(r: RegistryState): ResponseBody<NamespacesResponse> & { messages: UcpMessage[] } {
  const messages: UcpMessage[] = [];
  const namespaces = r.entries.map((e, i) => {
    if (e.problem) {
      messages.push(warning('namespace_misconfigured', `${e.namespace} answers namespace_unsupported: ${e.problem}`, `$.namespaces[${i}]`));
    }
    return { namespace: e.namespace, vendor: e.vendor, role: e.role, status: e.status, capabilities: e.capabilities };
  });
  return { namespaces, defaults: r.defaults, messages };
}

function rfc8414Url(issuer: string): string {
  const u = new URL(issuer);
  return `${u.origin}/.well-known/oauth-authorization-server${u.pathname.replace(/\/+$/, '')}`;
}
