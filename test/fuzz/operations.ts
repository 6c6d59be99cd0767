/**
 * Every operation and admin route of the service as a valid request template (issue 11 fuzz). `prepare` makes the
 * resources a request needs through the API itself (a fresh session to complete, a pending approval to resolve), so
 * an unmutated request is valid and each mutation is the only thing wrong with it.
 */
import { OpenApiValidator } from '../support/openapi-validator';
import { FakePartner } from '../partners/fake-partner-server';
import { TestApp } from '../support/test-app';
import { DEST } from '../support/money-fixtures';

export interface World {
  t: TestApp;
  supplier: FakePartner;
  machine: FakePartner;
  seq: number;
  saleId: string;
  purchaseId: string;
  approvalPrice: number;
  /** Requests not sent because what they needed could not be made. */
  setupFailures?: number;
  /** The OpenAPI document the app generates: refusals must be statuses and codes it declares. */
  api?: OpenApiValidator;
}

export interface Op {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** `:name` segments are filled from `prepare`'s answer (percent-encoded). */
  path: string;
  query?: Record<string, string>;
  /** Further optional query names a mutation may add. */
  extraQuery?: string[];
  body?: (w: World, p: Record<string, string>) => unknown;
  prepare?: (w: World) => Promise<Record<string, string>>;
  /** A success answer that is not the ucp envelope (probes, the OpenAPI document). */
  notEnvelope?: boolean;
  idempotencyKey?: boolean;
  ucpAgent?: boolean;
  /** A JSON-RPC request to the MCP endpoint (answers are JSON-RPC; a tool's result carries the ucp JSON). */
  mcp?: boolean;
  /** MCP 2026-07-28 (issue 29): the body carries the `_meta` envelope and the harness sends the standard headers. */
  mcp2026?: boolean;
}

/** A tools/call to `POST /ucp/mcp` (issue 18): the fuzz mutates the JSON-RPC envelope and the tool's arguments alike. */
const toolCall = (name: string, args: (w: World, p: Record<string, string>) => Record<string, unknown>) => (w: World, p: Record<string, string>) => ({
  jsonrpc: '2.0',
  id: ++w.seq,
  method: 'tools/call',
  params: { name, arguments: args(w, p) },
});
/** The same request in the 2026-07-28 revision: the per-request `_meta` envelope (no initialize, no session). */
const ENVELOPE_2026 = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'vending-fuzz', version: '1.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const modern = (rpc: (w: World, p: Record<string, string>) => { params?: Record<string, unknown> }) => (w: World, p: Record<string, string>) => {
  const r = rpc(w, p);
  return { ...r, params: { ...r.params, _meta: ENVELOPE_2026 } };
};
const mcpKey = (w: World) => ({ 'idempotency-key': `fz-mcp-${w.seq}-${Math.random().toString(36).slice(2)}` });

const SUP = 'acme-supply';
const MACH = 'acme-machine';
const LINE = { item: { id: `${SUP}:COLA` }, quantity: 1, quantity_unit: { unit: 'BX' } };

async function freshSession(w: World): Promise<Record<string, string>> {
  const id = `FZ-S-${++w.seq}`;
  const res = await w.t.post('/ucp/v1/checkout-sessions', { id, line_items: [LINE], fulfillment: DEST });
  if (res.status !== 201) throw new Error(`fuzz setup: session ${id} not created (${res.status} ${JSON.stringify(res.body).slice(0, 300)})`);
  return { session: id };
}

/** A fresh run of loc-1; every other one is filled by the machine platform's restock order (no money moves). */
async function freshRun(w: World, place = false): Promise<Record<string, string>> {
  const fulfiller = ++w.seq % 2 ? 'machine_restock' : 'simulated_supplier';
  const res = await w.t.post(`/ucp/v1/replenishment/runs?location=loc-1&fulfiller=${fulfiller}`);
  if (res.status !== 201) throw new Error(`fuzz setup: run not created (${res.status} ${JSON.stringify(res.body).slice(0, 300)})`);
  const id = (res.body.run?.id ?? res.body.id) as string;
  if (place) await w.t.post(`/ucp/v1/replenishment/runs/${encodeURIComponent(id)}/place`);
  return { run: id };
}

/** A pending price_change approval (parks one with a move past the cap when none is pending). */
async function pendingApproval(w: World): Promise<Record<string, string>> {
  for (let i = 0; i < 3; i++) {
    const list = await w.t.get('/ucp/v1/approvals?status=pending&kind=price_change');
    const first = (list.body.approvals ?? [])[0] as { id: string } | undefined;
    if (first) return { approval: first.id };
    w.approvalPrice = w.approvalPrice === 6000 ? 9000 : 6000;
    await w.t.put('/ucp/v1/locations/loc-1/prices', { prices: [{ item: { id: `${MACH}:C3` }, price: { amount: w.approvalPrice, currency: 'CNY' } }], confirm: true });
  }
  throw new Error('fuzz setup: no pending approval could be made');
}

export const OPERATIONS: Op[] = [
  { name: 'discovery', method: 'GET', path: '/.well-known/ucp' },
  { name: 'healthz', method: 'GET', path: '/healthz', notEnvelope: true },
  { name: 'readyz', method: 'GET', path: '/readyz', notEnvelope: true },
  { name: 'openapi', method: 'GET', path: '/ucp/v1/openapi.json', notEnvelope: true },
  { name: 'asyncapi', method: 'GET', path: '/ucp/v1/events/asyncapi.json', notEnvelope: true },
  { name: 'namespaces', method: 'GET', path: '/ucp/v1/namespaces' },
  {
    name: 'catalog.search', method: 'POST', path: '/ucp/v1/catalog/search', ucpAgent: true,
    body: () => ({ query: 'cola', filters: { namespace: SUP, location: 'loc-1', categories: ['drinks'] }, pagination: { limit: 10 } }),
  },
  { name: 'catalog.lookup', method: 'POST', path: '/ucp/v1/catalog/lookup', ucpAgent: true, body: () => ({ ids: [`${SUP}:COLA`, `${MACH}:A1`], filters: { location: 'loc-1' } }) },
  { name: 'skus.get', method: 'GET', path: '/ucp/v1/skus/:sku', query: { location: 'loc-1' }, prepare: async () => ({ sku: `${MACH}:A1` }) },
  // D4 is stocked at loc-2 only. (Aliasing a loc-1 good to acme-supply:COLA makes every supplier run of loc-1 fail with
  // 502 supplier_rejected "unknown vendorSku A1": the run place sends the machine's vendor sku; issue 10's area.)
  { name: 'skus.aliases', method: 'PUT', path: '/ucp/v1/skus/:sku/aliases', prepare: async () => ({ sku: `${MACH}:D4` }), body: () => ({ aliases: [{ sku_id: `${SUP}:COLA`, source: 'manual' }] }) },
  {
    name: 'locations.search', method: 'POST', path: '/ucp/v1/locations/search',
    body: () => ({ query: 'Machine', filters: { items: [{ id: `${MACH}:A1` }], amenities: ['wifi'], hours: { open_at: '2026-11-23T10:00:00+08:00' } }, pagination: { limit: 5 } }),
  },
  {
    name: 'locations.put', method: 'PUT', path: '/ucp/v1/locations/:loc', prepare: async (w) => ({ loc: `fz-loc-${w.seq % 5}` }),
    body: () => ({ name: 'Fuzz machine', profile: { city: 'Shanghai', placement: 'indoor', floor: 2 }, namespace: MACH, amenities: ['wifi'] }),
  },
  {
    name: 'locations.delete', method: 'DELETE', path: '/ucp/v1/locations/:loc',
    prepare: async (w) => {
      const loc = `fz-del-${++w.seq}`;
      await w.t.put(`/ucp/v1/locations/${loc}`, { name: 'to delete' });
      return { loc };
    },
  },
  { name: 'locations.inventory', method: 'GET', path: '/ucp/v1/locations/:loc/inventory', prepare: async () => ({ loc: 'loc-1' }) },
  { name: 'locations.sync', method: 'POST', path: '/ucp/v1/locations/sync', body: () => ({ sales_window_days: 30 }) },
  {
    name: 'prices.put', method: 'PUT', path: '/ucp/v1/locations/:loc/prices', idempotencyKey: true, prepare: async () => ({ loc: 'loc-1' }),
    body: (w) => ({ prices: [{ item: { id: `${MACH}:A1` }, price: { amount: w.seq % 2 ? 350 : 360, currency: 'CNY' } }], confirm: true }),
  },
  {
    name: 'restock', method: 'POST', path: '/ucp/v1/locations/:loc/restock', prepare: async () => ({ loc: 'loc-1' }),
    body: (w) => ({ reference: `fz-rs-${++w.seq}`, binding: false, line_items: [{ item: { id: `${MACH}:B2` }, quantity: 2, reason: 'low stock' }] }),
  },
  {
    name: 'orders.list', method: 'GET', path: '/ucp/v1/orders',
    query: { kind: 'sale', location: 'loc-1', from: '2026-01-01T00:00:00+08:00', to: '2027-01-01T00:00:00+08:00', limit: '10' },
    extraQuery: ['trade_status', 'updated_from', 'updated_to', 'cursor'],
  },
  { name: 'orders.purchases', method: 'GET', path: '/ucp/v1/orders', query: { kind: 'purchase', limit: '5' }, extraQuery: ['cursor'] },
  { name: 'orders.sale', method: 'GET', path: '/ucp/v1/orders/:order', prepare: async (w) => ({ order: w.saleId }) },
  { name: 'orders.purchase', method: 'GET', path: '/ucp/v1/orders/:order', prepare: async (w) => ({ order: w.purchaseId }) },
  { name: 'approvals.list', method: 'GET', path: '/ucp/v1/approvals', query: { status: 'pending', kind: 'price_change' } },
  { name: 'approvals.get', method: 'GET', path: '/ucp/v1/approvals/:approval', prepare: pendingApproval },
  {
    name: 'approvals.resolve', method: 'POST', path: '/ucp/v1/approvals/:approval', prepare: pendingApproval,
    body: (w) => ({ approved: w.seq % 2 === 0, resolver: { channel: 'chat_tool', chat_id: 'ops', sender_id: 'boss' } }),
  },
  // Issue 29: the requester takes back its own pending request.
  { name: 'approvals.withdraw', method: 'POST', path: '/ucp/v1/approvals/:approval/withdraw', prepare: pendingApproval, body: () => ({ reason: 'fuzz: sent by mistake' }) },
  { name: 'events.list', method: 'GET', path: '/ucp/v1/events', query: { limit: '10', location: 'loc-1', kind: 'note' } },
  { name: 'events.create', method: 'POST', path: '/ucp/v1/events', body: () => ({ kind: 'note', summary: 'fuzz', reasoning: 'a fuzz request', location: 'loc-1' }) },
  {
    name: 'checkout.create', method: 'POST', path: '/ucp/v1/checkout-sessions', idempotencyKey: true, ucpAgent: true,
    body: () => ({ line_items: [LINE, { item: { id: `${SUP}:WATER` }, quantity: 3 }], fulfillment: DEST }),
  },
  { name: 'checkout.get', method: 'GET', path: '/ucp/v1/checkout-sessions/:session', prepare: freshSession },
  { name: 'checkout.update', method: 'PUT', path: '/ucp/v1/checkout-sessions/:session', prepare: freshSession, body: () => ({ line_items: [{ ...LINE, quantity: 2 }], fulfillment: DEST }) },
  { name: 'checkout.cancel', method: 'POST', path: '/ucp/v1/checkout-sessions/:session/cancel', prepare: freshSession },
  {
    name: 'checkout.complete', method: 'POST', path: '/ucp/v1/checkout-sessions/:session/complete', idempotencyKey: true, prepare: freshSession,
    body: () => ({ confirm: true, payment: { instruments: [{ id: 'acct-1', handler_id: 'supplier_account', type: 'on_account' }] } }),
  },
  { name: 'replenishment.plan', method: 'GET', path: '/ucp/v1/replenishment/plan', query: { location: 'loc-1', fulfiller: 'simulated_supplier' } },
  { name: 'replenishment.create', method: 'POST', path: '/ucp/v1/replenishment/runs', query: { location: 'loc-1', fulfiller: 'simulated_supplier' } },
  { name: 'replenishment.list', method: 'GET', path: '/ucp/v1/replenishment/runs', query: { status: 'ready' } },
  { name: 'replenishment.get', method: 'GET', path: '/ucp/v1/replenishment/runs/:run', prepare: (w) => freshRun(w) },
  { name: 'replenishment.place', method: 'POST', path: '/ucp/v1/replenishment/runs/:run/place', idempotencyKey: true, prepare: (w) => freshRun(w) },
  {
    name: 'replenishment.receive', method: 'POST', path: '/ucp/v1/replenishment/runs/:run/receive', prepare: (w) => freshRun(w, true),
    body: () => ({ delivered: [{ slot_id: 'loc-1-A1', quantity: 3 }], note: 'received' }),
  },
  {
    name: 'replenishment.close', method: 'POST', path: '/ucp/v1/replenishment/runs/:run/close', idempotencyKey: true, prepare: (w) => freshRun(w, true),
    body: () => ({ reason: 'fuzz: will not arrive', confirm: true }),
  },
  {
    name: 'replenishment.cancel', method: 'POST', path: '/ucp/v1/replenishment/runs/:run/cancel', idempotencyKey: true, prepare: (w) => freshRun(w),
    body: () => ({ reason: 'fuzz: not needed', confirm: true }),
  },
  {
    name: 'replenishment.drop_refused', method: 'POST', path: '/ucp/v1/replenishment/runs/:run/drop-refused-lines', idempotencyKey: true, prepare: (w) => freshRun(w),
    body: () => ({ confirm: true }),
  },
  { name: 'depot.get', method: 'GET', path: '/ucp/v1/depot' },
  { name: 'depot.count', method: 'POST', path: '/ucp/v1/depot/counts', idempotencyKey: true, body: () => ({ counts: [{ item: { id: `${MACH}:A1` }, quantity: 3 }], reason: 'fuzz count', confirm: true }) },
  { name: 'depot.fill', method: 'POST', path: '/ucp/v1/depot/fill', idempotencyKey: true, body: () => ({ fills: [{ slot_id: 'loc-1-A1', quantity: 1 }], confirm: true }) },
  { name: 'replenishment.score', method: 'GET', path: '/ucp/v1/replenishment/score', query: { horizon_days: '7' } },
  { name: 'admin.guards.get', method: 'GET', path: '/ucp/v1/admin/guards' },
  { name: 'admin.guards.put', method: 'PUT', path: '/ucp/v1/admin/guards', body: () => FUZZ_GUARDS },
  { name: 'mcp.tools_list', method: 'POST', path: '/ucp/mcp', mcp: true, body: (w) => ({ jsonrpc: '2.0', id: ++w.seq, method: 'tools/list', params: {} }) },
  { name: 'mcp.search_catalog', method: 'POST', path: '/ucp/mcp', mcp: true, body: toolCall('search_catalog', () => ({ meta: { 'ucp-agent': { profile: 'https://agent.example/p' } }, catalog: { query: 'cola', filters: { namespace: SUP } } })) },
  { name: 'mcp.list_orders', method: 'POST', path: '/ucp/mcp', mcp: true, body: toolCall('list_orders', () => ({ kind: 'purchase', limit: 5 })) },
  {
    name: 'mcp.complete_checkout', method: 'POST', path: '/ucp/mcp', mcp: true, prepare: freshSession,
    body: toolCall('complete_checkout', (w, p) => ({ meta: mcpKey(w), id: p.session, checkout: { confirm: true } })),
  },
  {
    name: 'mcp.update_prices', method: 'POST', path: '/ucp/mcp', mcp: true,
    body: toolCall('update_prices', (w) => ({ meta: mcpKey(w), id: 'loc-1', prices: { confirm: true, prices: [{ item: { id: `${MACH}:A1` }, price: { amount: w.seq % 2 ? 350 : 360, currency: 'CNY' } }] } })),
  },
  // Issue 29: the new tool, removal by quantity 0 whatever the unit, and the price floor's go-ahead fields.
  { name: 'mcp.withdraw_approval', method: 'POST', path: '/ucp/mcp', mcp: true, prepare: pendingApproval, body: toolCall('withdraw_approval', (_w, p) => ({ id: p.approval, withdrawal: { reason: 'fuzz: sent by mistake' } })) },
  {
    name: 'mcp.update_checkout', method: 'POST', path: '/ucp/mcp', mcp: true, prepare: freshSession,
    body: toolCall('update_checkout', (_w, p) => ({ id: p.session, checkout: { line_items: [{ item: { id: `${SUP}:COLA` }, quantity: 0 }, { item: { id: `${SUP}:WATER` }, quantity: 2 }], fulfillment: DEST } })),
  },
  {
    name: 'mcp.update_prices_floor', method: 'POST', path: '/ucp/mcp', mcp: true,
    body: toolCall('update_prices', (w) => ({ meta: mcpKey(w), id: 'loc-1', prices: { confirm: true, prices: [{ item: { id: `${MACH}:B2` }, price: { amount: w.seq % 2 ? 40 : 500, currency: 'CNY' }, allow_deep_cut: w.seq % 3 === 0, allow_below_cost: false }] } })),
  },
  // Issue 29 item 6: the 2026-07-28 revision on the same endpoint (discover, the list, money-moving tools, withdraw).
  { name: 'mcp2026.server_discover', method: 'POST', path: '/ucp/mcp', mcp: true, mcp2026: true, body: modern((w) => ({ jsonrpc: '2.0', id: ++w.seq, method: 'server/discover', params: {} })) },
  { name: 'mcp2026.tools_list', method: 'POST', path: '/ucp/mcp', mcp: true, mcp2026: true, body: modern((w) => ({ jsonrpc: '2.0', id: ++w.seq, method: 'tools/list', params: {} })) },
  {
    name: 'mcp2026.complete_checkout', method: 'POST', path: '/ucp/mcp', mcp: true, mcp2026: true, prepare: freshSession,
    body: modern(toolCall('complete_checkout', (w, p) => ({ meta: mcpKey(w), id: p.session, checkout: { confirm: true } }))),
  },
  {
    name: 'mcp2026.update_prices', method: 'POST', path: '/ucp/mcp', mcp: true, mcp2026: true,
    body: modern(toolCall('update_prices', (w) => ({ meta: mcpKey(w), id: 'loc-1', prices: { confirm: true, prices: [{ item: { id: `${MACH}:A1` }, price: { amount: w.seq % 2 ? 350 : 360, currency: 'CNY' } }] } }))),
  },
  { name: 'mcp2026.withdraw_approval', method: 'POST', path: '/ucp/mcp', mcp: true, mcp2026: true, prepare: pendingApproval, body: modern(toolCall('withdraw_approval', (_w, p) => ({ id: p.approval, withdrawal: { reason: 'fuzz: sent by mistake' } }))) },
  { name: 'admin.kill-switch', method: 'PUT', path: '/ucp/v1/admin/kill-switch', body: () => ({ engaged: false, reason: 'fuzz: stays released' }) },
];

/** Guard rules for the fuzz: set, with budgets high enough that completes are not all escalated. */
export const FUZZ_GUARDS = {
  killSwitch: false,
  budget: { perOrderFen: 1_000_000, dailyFen: 1_000_000_000, monthlyFen: 10_000_000_000 },
  priceCapPerItem: { maxMoveFen: 200, maxMovePercent: 25 },
  probationVendors: [] as string[],
  hardNoGo: { vendors: [] as string[], skus: [] as string[] },
};
