import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { CAPABILITY_VERSIONS, UCP_CAPABILITY_VERSIONS, UCP_VERSION, warning, UcpMessage } from '../common/envelope';
import { paymentHandlers } from '../common/payment-handlers';
import { ASYNCAPI_PATH } from '../events/asyncapi';
import { capabilitySchemaUrl } from './capability-schemas.rules';
import { MCP_PATH, MCP_SCHEMA_PATH } from '../common/mcp-paths';
import { PartnerRegistry } from '../partners/registry/partner-registry';

export const INTERFACE_VERSION = '2026-09-10 v2';
export const API_PREFIX = '/ucp/v1';

/** UCP's specification pages of the version the service speaks (the `spec` of UCP's own service and capabilities). */
const UCP_SPEC = `https://ucp.dev/${UCP_VERSION}/specification`;
const UCP_SPEC_OF: Record<string, string> = {
  'dev.ucp.shopping.checkout': `${UCP_SPEC}/checkout/`,
  'dev.ucp.shopping.catalog.search': `${UCP_SPEC}/catalog/`,
  'dev.ucp.shopping.catalog.lookup': `${UCP_SPEC}/catalog/`,
};

/** Builds the UCP profile and the namespace registry view from the run-time registry (no vendor hard-coded). */
@Injectable()
export class DiscoveryService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: PartnerRegistry,
  ) {}

  /**
   * `tokenHolder`: the request carried a valid credential. The partner namespaces (vendors and roles) are listed to
   * token holders only (issue 26): an anonymous client can call nothing that takes a namespace, and the list tells an
   * outsider whom the operator buys from. Anonymous readers get the same shape with empty lists.
   */
  profile(base: string, tokenHolder: boolean) {
    const live = this.registry.list().filter((e) => e.status === 'live' && !e.problem);
    const capabilities: Record<string, { version: string; spec?: string; schema: string; config?: Record<string, unknown> }[]> = {};
    // UCP's own capabilities first (a UCP client finds checkout and catalog by their UCP names), then the extensions.
    for (const [name, version] of Object.entries({ ...UCP_CAPABILITY_VERSIONS, ...CAPABILITY_VERSIONS })) {
      const entry: { version: string; spec?: string; schema: string; config?: Record<string, unknown> } = { version, ...(UCP_SPEC_OF[name] ? { spec: UCP_SPEC_OF[name] } : {}), schema: capabilitySchemaUrl(base, name) };
      if (name === 'com.example.svc.sku') {
        entry.config = tokenHolder
          ? { namespaces: this.registry.list().map((e) => ({ namespace: e.namespace, vendor: e.vendor, role: e.role, status: e.status })), vendors: [...new Set(live.map((e) => e.vendor))] }
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
            },
            {
              version: UCP_VERSION,
              transport: 'mcp',
              endpoint: `${base}${MCP_PATH}`,
              schema: `${base}${MCP_SCHEMA_PATH}`,
              interface_version: INTERFACE_VERSION,
            },
          ],
        },
        capabilities,
        payment_handlers: paymentHandlers(),
      },
      environment: this.config.env,
      messages: [] as UcpMessage[],
    };
  }

  namespaces() {
    const messages: UcpMessage[] = [];
    const namespaces = this.registry.list().map((e, i) => {
      if (e.problem) {
        messages.push(warning('namespace_misconfigured', `${e.namespace} answers namespace_unsupported: ${e.problem}`, `$.namespaces[${i}]`));
      }
      return { namespace: e.namespace, vendor: e.vendor, role: e.role, status: e.status, capabilities: e.capabilities };
    });
    return { namespaces, defaults: this.registry.defaults(), messages };
  }
}
