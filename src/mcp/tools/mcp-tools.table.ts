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
  /**
   * A read that records what it read (a GET with writes of its own, never a partner call): not `readOnlyHint`, still
   * `idempotentHint` (the same call again records nothing new); says what it records, in the tool's description.
   */
  records?: string;
  /** Moves money or places a real order: `destructiveHint`, and `meta["idempotency-key"]` is required. */
  movesMoney?: boolean;
  /** Changes or removes something an operator cannot simply undo (not money): `destructiveHint`. */
  destructive?: boolean;
  /** One of UCP's own operations (UCP names and argument shape). */
  ucp?: boolean;
  /** What the tool is for and when to use it, in a sentence or two (in place of the REST operation's longer text). */
  purpose?: string;
}

export const MCP_TOOLS: readonly McpToolSpec[] = [
  // UCP shopping operations (UCP's MCP binding).
  { tool: 'create_checkout', operationId: 'checkout_create', payload: 'checkout', ucp: true,
    purpose: 'Open a purchase order (UCP checkout) for one supply namespace; nothing is spent. Use it after search_catalog; a session in `requires_escalation` waits for an owner\'s approval (its id in the `approval_required` message).' },
  { tool: 'get_checkout', operationId: 'checkout_get', readOnly: true, ucp: true,
    purpose: 'Read a checkout session as it is now (an interrupted complete is settled by reading the supplier, never ordering again).' },
  { tool: 'update_checkout', operationId: 'checkout_update', payload: 'checkout', ucp: true,
    purpose: 'Change a session\'s lines or destination. Quantity 0 removes a line, whatever its unit; changing an approved session\'s lines asks for a new approval.' },
  { tool: 'complete_checkout', operationId: 'checkout_complete', payload: 'checkout', movesMoney: true, ucp: true,
    purpose: 'Place the real wholesale order of a `ready_for_complete` session, once (one in `requires_escalation` waits for the owner approval named in its `approval_required` message). If the supplier refuses it (`supplier_rejected`) the session stays open: fix the lines with update_checkout (quantity 0 removes one) or cancel_checkout, then complete again with a new key; after `upstream_unreachable` read get_checkout first, never complete twice.' },
  { tool: 'cancel_checkout', operationId: 'checkout_cancel', destructive: true, ucp: true,
    purpose: 'Cancel a session that has not been completed (no supplier call).' },
  { tool: 'search_catalog', operationId: 'catalog_search', payload: 'catalog', readOnly: true, ucp: true,
    purpose: 'Search a supplier\'s catalog (`filters.namespace` = a supply namespace) or a machine\'s synced stock (a machine namespace and `filters.location`). Prices are integer fen per each (350 = ¥3.50).' },
  { tool: 'lookup_catalog', operationId: 'catalog_lookup', payload: 'catalog', readOnly: true, ucp: true,
    purpose: 'Look up to 50 variant ids across namespaces, with their aliases; unknown ids come back as `not_found` warnings.' },
  { tool: 'get_order', operationId: 'orders_get', readOnly: true, ucp: true,
    purpose: 'Read one order: a purchase order\'s supplier status and logistics, or a sale.' },
  // The service's own operations.
  { tool: 'get_profile', operationId: 'discovery_profile', readOnly: true,
    purpose: 'The UCP profile: services, capabilities and namespaces. Start here; never hard-code vendors.' },
  { tool: 'list_namespaces', operationId: 'namespaces_list', readOnly: true,
    purpose: 'Every registered supply and machine namespace with its status and capabilities.' },
  { tool: 'list_orders', operationId: 'orders_list', readOnly: true,
    purpose: 'List sales (`kind=sale`, the synced ledger, newest first) or purchase orders; follow `pagination.cursor`.' },
  { tool: 'get_sku', operationId: 'skus_get', readOnly: true,
    purpose: 'Read a SKU: barcodes, aliases and which suppliers sell it today.' },
  { tool: 'update_sku_aliases', operationId: 'skus_put_aliases', payload: 'aliases',
    purpose: 'Replace a SKU\'s confirmed aliases (how a machine good maps to a supplier\'s).' },
  { tool: 'search_locations', operationId: 'locations_search', payload: 'search', readOnly: true,
    purpose: 'Find machines by the goods they carry or their amenities.' },
  { tool: 'put_location', operationId: 'locations_put', payload: 'location',
    purpose: 'Register or update a machine (its id is the machine platform\'s).' },
  { tool: 'delete_location', operationId: 'locations_delete', destructive: true,
    purpose: 'Remove a machine from the roster (its sales and events stay).' },
  { tool: 'get_inventory', operationId: 'locations_inventory', readOnly: true,
    purpose: 'Read a machine\'s shelves live from its platform (search_catalog reads the synced copy).' },
  { tool: 'sync_locations', operationId: 'locations_sync', payload: 'sync',
    purpose: 'Pull inventory and sales of every machine now (one sync at a time).' },
  { tool: 'update_prices', operationId: 'prices_update', payload: 'prices', movesMoney: true,
    purpose: 'Change the price customers pay on a machine now. A move over the price cap is parked for an owner (`status: "pending_approval"` with the approval id); a price below its purchase cost or cut by more than 90% is refused unless `allow_below_cost` / `allow_deep_cut` says it is meant.' },
  { tool: 'get_replenishment_plan', operationId: 'replenishment_plan', records: 'a plan snapshot: today\'s lowest stock and forecast of each slot it covers',
    purpose: 'What to order now, per slot, with where each number came from; orders nothing.' },
  { tool: 'get_replenishment_score', operationId: 'replenishment_score', readOnly: true,
    purpose: 'How good past forecasts were (WAPE, bias, MASE).' },
  { tool: 'create_run', operationId: 'replenishment_run_create',
    purpose: 'Freeze the current plan into a run to place; over budget it waits for an owner (`awaiting_approval`).' },
  { tool: 'list_runs', operationId: 'replenishment_runs_list', readOnly: true,
    purpose: 'List runs, newest first, without their lines.' },
  { tool: 'get_run', operationId: 'replenishment_run_get', readOnly: true,
    purpose: 'Read a run with its lines and checkout sessions (an interrupted place is settled by reading the fulfiller).' },
  { tool: 'place_run', operationId: 'replenishment_run_place', payload: 'run', movesMoney: true,
    purpose: 'Order a run\'s goods from its fulfiller, once. If a supplier refuses its purchase order, get_run names the checkout session: fix it (update_checkout, complete_checkout) or cancel_checkout.' },
  { tool: 'receive_run', operationId: 'replenishment_run_receive', payload: 'receipt',
    purpose: 'Record a run\'s delivery into the slots; the run is delivered (unlisted lines close short).' },
  { tool: 'record_arrival', operationId: 'replenishment_run_arrivals', payload: 'arrival', destructive: true,
    purpose: 'Record a placed run\'s lines that reached the warehouse (the depot).' },
  { tool: 'close_run', operationId: 'replenishment_run_close', payload: 'closing', destructive: true,
    purpose: 'Close a placed run that will not arrive (further): its units leave on-order; the reason is recorded.' },
  { tool: 'cancel_run', operationId: 'replenishment_run_cancel', payload: 'cancel', destructive: true,
    purpose: 'Cancel a run not yet placed: its pending approval is withdrawn and nothing is sent.' },
  { tool: 'drop_refused_lines', operationId: 'replenishment_run_drop_refused_lines', payload: 'drop', destructive: true,
    purpose: 'Drop the lines a supplier refused as unavailable from a supply-checkout run, so place_run can order the rest.' },
  { tool: 'get_depot', operationId: 'depot_get', readOnly: true,
    purpose: 'Units per good in the depot (warehouse or van), which the plan uses before buying.' },
  { tool: 'fill_from_depot', operationId: 'depot_fill', payload: 'fill', destructive: true,
    purpose: 'Record units moved from the depot into slots (the plan\'s `from_depot`).' },
  { tool: 'count_depot_stock', operationId: 'depot_count', payload: 'count', destructive: true,
    purpose: 'Set a good\'s depot stock after a stock count, with the reason.' },
  { tool: 'send_restock', operationId: 'restock_send', payload: 'restock', movesMoney: true,
    purpose: 'Send a restock recommendation (`binding: false`) or order (`binding: true`) to a machine platform; `reference` is idempotent.' },
  { tool: 'list_approvals', operationId: 'approvals_list', readOnly: true,
    purpose: 'List owner approvals (default: pending).' },
  { tool: 'get_approval', operationId: 'approvals_get', readOnly: true,
    purpose: 'Read one approval and what it is about (`subject`).' },
  { tool: 'resolve_approval', operationId: 'approvals_resolve', payload: 'resolution',
    purpose: 'Approve or reject a pending approval. An owner\'s decision: an agent relays it and never approves its own request (the approver credential is required where configured).' },
  { tool: 'withdraw_approval', operationId: 'approvals_withdraw', payload: 'withdrawal',
    purpose: 'Take back your own pending approval request made by mistake (it ends rejected, with your reason); then send the right change.' },
  { tool: 'list_events', operationId: 'events_list', readOnly: true,
    purpose: 'Read the audit log of decisions, sales and errors, newest first.' },
  { tool: 'get_fleet', operationId: 'fleet_overview', readOnly: true,
    purpose: 'Every machine at a glance from the synced copy: fill, sold-out slots, sales today and over 7 days.' },
  { tool: 'plan_route', operationId: 'visits_today', readOnly: true,
    purpose: 'Today\'s route: stops worth their cost, in order, with reasons and picks; skipped machines; the van list.' },
  { tool: 'record_visit', operationId: 'visits_record', payload: 'visit', destructive: true,
    purpose: 'Record what the driver put into each slot of one machine (and brought back). Needs `confirm: true`.' },
  { tool: 'get_route_settings', operationId: 'visits_settings_get', readOnly: true,
    purpose: 'Stops per day, stop costs, visit days and sites.' },
  { tool: 'set_route_settings', operationId: 'visits_settings_put', payload: 'settings',
    purpose: 'Change a machine\'s stop cost, visit days or site (null: default).' },
  { tool: 'get_budget', operationId: 'budget_standing', readOnly: true,
    purpose: 'Each spending budget with what is already spent today and this month (integer fen).' },
  { tool: 'get_daily_sales', operationId: 'sales_daily', readOnly: true,
    purpose: 'Settled sales per +08:00 day with today\'s and 7 days\' totals (integer fen), summed by the service.' },
  { tool: 'get_price_audit', operationId: 'price_audit', readOnly: true,
    purpose: 'Slots whose machine price differs from the last price the service set or approved (changed at the machine by hand).' },
  { tool: 'create_event', operationId: 'events_create', payload: 'event',
    purpose: 'Record what you decided and why (an audit note).' },
  { tool: 'get_guards', operationId: 'admin_guards_get', readOnly: true,
    purpose: 'Read the guard rules (budget, price cap, probation) and the kill switch.' },
  { tool: 'update_guards', operationId: 'admin_guards_put', payload: 'guards', destructive: true,
    purpose: 'Replace the guard rules (a person\'s decision; amounts integer fen).' },
  { tool: 'set_kill_switch', operationId: 'admin_kill_switch_put', payload: 'kill_switch',
    purpose: 'Engage or release the kill switch that stops every money move. A person decides this; anyone may engage it.' },
];

/** Operations with no tool: the probes (no data for an agent). */
// Health probes are for orchestrators; the sign-in cookie is for browsers (an agent sends its bearer token).
// Connecting and disconnecting agents is a person's (issue 36): an agent's own token is refused there anyway.
export const MCP_EXCLUDED_OPERATIONS: readonly string[] = ['health_live', 'health_ready', 'auth_session_create', 'auth_session_delete', 'agents_list', 'agents_disconnect', 'agents_request_get', 'agents_request_decide'];

/** What an agent must know before calling a money-moving tool; appended to its description (the rest is in the instructions). */
export const MONEY_NOTE =
  'MONEY MOVES, once, never retried by the service: `meta["idempotency-key"]` is required (the same key to retry); `confirm: true` only after a person confirmed this exact action; `requires_buyer_review` means stop and show a person.';
