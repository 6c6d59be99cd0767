/** Response models of discovery and the namespace registry (OpenAPI only; see common/envelope.responses.ts). */
import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { CapabilityVersionView, PaymentHandlerView, UcpEnvelope, UcpMessageView } from '../common/envelope.responses';

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
}

const mapOf = (model: () => unknown, description: string) =>
  ApiProperty({ type: 'object', description, additionalProperties: { type: 'array', items: { $ref: getSchemaPath(model() as never) } } });

export class ProfileUcpView {
  @ApiProperty({ enum: ['2026-08-25'] })
  version: string;
  status: 'success' | 'error';
  @mapOf(() => ProfileServiceView, 'Services by name (`com.example.svc`).')
  services: Record<string, ProfileServiceView[]>;
  @mapOf(
    () => CapabilityVersionView,
    'Capabilities by name. `com.example.svc.sku` `config.namespaces` lists the vendors\' namespaces; `com.example.svc.events` `config.websocket_url` is the event socket and `config.asyncapi_url` its AsyncAPI document.',
  )
  capabilities: Record<string, CapabilityVersionView[]>;
  @mapOf(() => PaymentHandlerView, 'Payment handlers by name (`supplier_account`, instrument type `on_account`).')
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

export class ReadyResponse {
  @ApiProperty({ enum: ['ready'] })
  status: 'ready';
}
