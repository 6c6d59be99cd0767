/** Response models of discovery and the namespace registry (OpenAPI only; see common/envelope.responses.ts). */
import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { CapabilityVersionView, PaymentHandlerView, UcpEnvelope, UcpMessageView } from '../../common/envelope/envelope.responses';

/** How an agent gets a token for this service (issue 36): OAuth metadata, for clients that discover it. */
export class ServiceAuthorizationView {
  /** RFC 9728 protected resource metadata (names the authorization server). */
  protected_resource_metadata: string;
  /** RFC 8414 metadata of the service's own authorization server. */
  authorization_server_metadata: string;
  /** `read` or `operate` (never the owner's powers). */
  scopes: string[];
}

export class ProfileServiceView {
  version: string;
  @ApiProperty({ enum: ['rest', 'mcp'] })
  transport: 'rest' | 'mcp';
  /** Base of the REST API, `<base>/ucp/v1`, or the MCP endpoint `<base>/ucp/mcp` (Streamable HTTP). */
  endpoint: string;
  /** URL of this OpenAPI document (rest), or of the OpenRPC document describing the MCP tools (mcp). */
  schema?: string;
  spec?: string;
  /** The interface version, `2026-09-10 v2`. */
  interface_version?: string;
  /** OAuth for agents (issue 36); the operator token works as before. */
  authorization?: ServiceAuthorizationView;
}

/** A capability entry of the profile: its version, the URL of its JSON Schema, and its config. */
export class ProfileCapabilityView extends CapabilityVersionView {
  /** Absolute URL of the capability's JSON Schema (draft 2020-12), served without a token. */
  schema: string;
  spec?: string;
}

const mapOf = (model: () => unknown, description: string) =>
  ApiProperty({ type: 'object', description, additionalProperties: { type: 'array', items: { $ref: getSchemaPath(model() as never) } } });

export class ProfileUcpView {
  @ApiProperty({ enum: ['2026-08-25'] })
  version: string;
  status: 'success' | 'error';
  @mapOf(() => ProfileServiceView, 'Services by name: `dev.ucp.shopping` (UCP\'s shopping service: the REST and MCP endpoints) and `com.example.svc` (the same endpoints with the interface version).')
  services: Record<string, ProfileServiceView[]>;
  @mapOf(
    () => ProfileCapabilityView,
    'Capabilities by name: UCP\'s `dev.ucp.shopping.checkout`, `dev.ucp.shopping.catalog.search` and `dev.ucp.shopping.catalog.lookup` (with `spec`), and the extensions `com.example.svc.*`. `com.example.svc.sku` `config.namespaces` lists the vendors\' namespaces to a caller that sends its token (anonymous callers get empty lists and `listed_to: "token holders"`); `com.example.svc.events` `config.websocket_url` is the event socket and `config.asyncapi_url` its AsyncAPI document.',
  )
  capabilities: Record<string, ProfileCapabilityView[]>;
  @mapOf(() => PaymentHandlerView, 'Payment handlers by reverse-domain name (`com.example.svc.supplier_account`, whose `id` `supplier_account` is the `handler_id` of a payment instrument; instrument type `on_account`). Checkout sessions carry the same entry.')
  payment_handlers: Record<string, PaymentHandlerView[]>;
}

/** The UCP profile at `/.well-known/ucp`. */
export class DiscoveryProfileResponse {
  ucp: ProfileUcpView;
  /** `production` or `staging` (staging never spends on a real supplier). */
  environment?: 'production' | 'staging';
  messages: UcpMessageView[];
}

export class NamespaceView {
  /** `<vendor>-supply` or `<vendor>-machine`. */
  namespace: string;
  vendor: string;
  role: 'supply' | 'machine';
  /** A `planned` namespace answers `namespace_unsupported` on every call. */
  status: 'live' | 'planned';
  capabilities: string[];
}

export class NamespaceDefaultsView {
  machine?: string;
  supply?: string;
}

export class NamespacesResponse extends UcpEnvelope {
  namespaces: NamespaceView[];
  defaults: NamespaceDefaultsView;
}

export class HealthResponse {
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';
}

export class ReplicaReadiness {
  @ApiProperty({ description: 'The replica as host:port/database (DATABASE_READ_URL, without user or password).' })
  replica: string;
  @ApiProperty({ enum: ['up', 'lagging', 'down'], description: 'up: serves reads; lagging: past DATABASE_READ_MAX_LAG_MS; down: not answering (or not a standby). Reads skip a replica that is not up.' })
  state: 'up' | 'lagging' | 'down';
  @ApiProperty({ type: 'integer', nullable: true, description: 'Milliseconds since the primary first had WAL this replica has not replayed; null when unknown.' })
  lag_ms: number | null;
}

export class ReadyResponse {
  @ApiProperty({ enum: ['ready'] })
  status: 'ready';
  @ApiProperty({ type: [ReplicaReadiness], required: false, description: 'Only with DATABASE_READ_URL: each read replica. A replica never makes the instance unready.' })
  replicas?: ReplicaReadiness[];
}
