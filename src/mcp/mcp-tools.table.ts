/**
 * The one table of MCP tools: each tool is one REST operation of the OpenAPI document (by operationId), so the tool's
 * schemas, guards, validation, idempotency and error table are the REST ones. UCP's eight operations keep UCP's names
 * and argument shape `{meta, id?, checkout|catalog}` (ucp source/services/shopping/mcp.openrpc.json); every other
 * operation is a snake_case verb_noun in the same style. docs/mcp.md is generated from this table
 * (test/unit/mcp/mcp-doc.spec.ts checks it).
 */
export interface McpToolSpec {
  /** MCP tool name. */
  tool: string;
  /** The REST operation it runs (OpenAPI operationId). */
  operationId: string;
  /** Argument that carries the JSON body, when the operation takes one. */
  payload?: string;
  /** Reads only: `readOnlyHint`. */
  readOnly?: boolean;
  /** Moves money or places a real order: `destructiveHint`, and `meta["idempotency-key"]` is required. */
  movesMoney?: boolean;
  /** Changes or removes something an operator cannot simply undo (not money): `destructiveHint`. */
  destructive?: boolean;
  /** One of UCP's own operations (UCP names and argument shape). */
  ucp?: boolean;
}

export const MCP_TOOLS: readonly McpToolSpec[] = [
  // UCP shopping operations (UCP's MCP binding).
  { tool: 'create_checkout', operationId: 'checkout_create', payload: 'checkout', ucp: true },
  { tool: 'get_checkout', operationId: 'checkout_get', readOnly: true, ucp: true },
  { tool: 'update_checkout', operationId: 'checkout_update', payload: 'checkout', ucp: true },
  { tool: 'complete_checkout', operationId: 'checkout_complete', payload: 'checkout', movesMoney: true, ucp: true },
  { tool: 'cancel_checkout', operationId: 'checkout_cancel', destructive: true, ucp: true },
  { tool: 'search_catalog', operationId: 'catalog_search', payload: 'catalog', readOnly: true, ucp: true },
  { tool: 'lookup_catalog', operationId: 'catalog_lookup', payload: 'catalog', readOnly: true, ucp: true },
  { tool: 'get_order', operationId: 'orders_get', readOnly: true, ucp: true },
  // The service's own operations.
  { tool: 'get_profile', operationId: 'discovery_profile', readOnly: true },
  { tool: 'list_namespaces', operationId: 'namespaces_list', readOnly: true },
  { tool: 'list_orders', operationId: 'orders_list', readOnly: true },
  { tool: 'get_sku', operationId: 'skus_get', readOnly: true },
  { tool: 'update_sku_aliases', operationId: 'skus_put_aliases', payload: 'aliases' },
  { tool: 'search_locations', operationId: 'locations_search', payload: 'search', readOnly: true },
  { tool: 'put_location', operationId: 'locations_put', payload: 'location' },
  { tool: 'delete_location', operationId: 'locations_delete', destructive: true },
  { tool: 'get_inventory', operationId: 'locations_inventory', readOnly: true },
  { tool: 'sync_locations', operationId: 'locations_sync', payload: 'sync' },
  { tool: 'update_prices', operationId: 'prices_update', payload: 'prices', movesMoney: true },
  { tool: 'get_replenishment_plan', operationId: 'replenishment_plan', readOnly: true },
  { tool: 'get_replenishment_score', operationId: 'replenishment_score', readOnly: true },
  { tool: 'create_run', operationId: 'replenishment_run_create' },
  { tool: 'list_runs', operationId: 'replenishment_runs_list', readOnly: true },
  { tool: 'get_run', operationId: 'replenishment_run_get', readOnly: true },
  { tool: 'place_run', operationId: 'replenishment_run_place', payload: 'run', movesMoney: true },
  { tool: 'receive_run', operationId: 'replenishment_run_receive', payload: 'receipt' },
  { tool: 'close_run', operationId: 'replenishment_run_close', payload: 'closing', destructive: true },
  { tool: 'cancel_run', operationId: 'replenishment_run_cancel', payload: 'cancel', destructive: true },
  { tool: 'drop_refused_lines', operationId: 'replenishment_run_drop_refused_lines', payload: 'drop', destructive: true },
  { tool: 'get_depot', operationId: 'depot_get', readOnly: true },
  { tool: 'fill_from_depot', operationId: 'depot_fill', payload: 'fill', destructive: true },
  { tool: 'count_depot_stock', operationId: 'depot_count', payload: 'count', destructive: true },
  { tool: 'send_restock', operationId: 'restock_send', payload: 'restock', movesMoney: true },
  { tool: 'list_approvals', operationId: 'approvals_list', readOnly: true },
  { tool: 'get_approval', operationId: 'approvals_get', readOnly: true },
  { tool: 'resolve_approval', operationId: 'approvals_resolve', payload: 'resolution' },
  { tool: 'list_events', operationId: 'events_list', readOnly: true },
  { tool: 'get_fleet', operationId: 'fleet_overview', readOnly: true },
  { tool: 'create_event', operationId: 'events_create', payload: 'event' },
  { tool: 'get_guards', operationId: 'admin_guards_get', readOnly: true },
  { tool: 'update_guards', operationId: 'admin_guards_put', payload: 'guards', destructive: true },
  { tool: 'set_kill_switch', operationId: 'admin_kill_switch_put', payload: 'kill_switch' },
];

/** Operations with no tool: the probes (no data for an agent). */
// Health probes are for orchestrators; the sign-in cookie is for browsers (an agent sends its bearer token).
export const MCP_EXCLUDED_OPERATIONS: readonly string[] = ['health_live', 'health_ready', 'auth_session_create', 'auth_session_delete'];

/** What an agent must know before calling a money-moving tool; appended to its description. */
export const MONEY_NOTE =
  'MONEY MOVES: this tool spends money or changes what a real partner does, once, never retried by the service. ' +
  '`meta["idempotency-key"]` is required: reuse the same key when you retry the same call, and it answers the first result instead of acting twice. ' +
  '`confirm: true` is a person\'s decision, not yours: send it only after a person (or their written policy) confirmed this exact action. ' +
  'A session in status `requires_escalation` waits for an owner\'s approval (`approval_required`, a pending approval in `links`): tell a person, who resolves it; an agent relays, never approves for them. ' +
  'A message with severity `requires_buyer_review` (for example `kill_switch_engaged`) means stop and show it to a person; do not loop or work around it.';
