import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, GUARDS, NS } from '../support/money-fixtures';
import { callTool, mcpClient } from '../support/mcp-client';
import { MCP_TOOLS } from '../../src/mcp/tools/mcp-tools.table';
import { inToolTerms } from '../../src/mcp/tools/mcp-answer.rules';
import { OpenApiDocumentLike, ToolRoute, toolDefinitions } from '../../src/mcp/tools/mcp-schemas.rules';

/** One side of the walk: `R` runs over REST, `M` over MCP; each side writes its own resources (ids end in its letter). */
type Side = 'R' | 'M';
interface Ctx {
  runId?: string;
  approvalId?: string;
}
interface Step {
  tool: string;
  args: (s: Side, c: Ctx) => Record<string, unknown>;
  rest: (s: Side, c: Ctx) => { method: 'get' | 'post' | 'put' | 'delete'; url: string; body?: unknown; key?: string };
  after?: (body: Record<string, unknown>, c: Ctx) => void;
}

const MACHINE = 'acme-machine';
const loc = (s: Side) => `loc-${s}`;
const session = (s: Side) => `PO-walk-${s}`;
const key = (s: Side, what: string) => `walk-${what}-${s}`;

/** Every operation, in an order where each write has something to act on. */
const WALK: Step[] = [
  { tool: 'get_profile', args: () => ({}), rest: () => ({ method: 'get', url: '/.well-known/ucp' }) },
  { tool: 'list_namespaces', args: () => ({}), rest: () => ({ method: 'get', url: '/ucp/v1/namespaces' }) },
  { tool: 'get_guards', args: () => ({}), rest: () => ({ method: 'get', url: '/ucp/v1/admin/guards' }) },
  { tool: 'update_guards', args: () => ({ guards: GUARDS }), rest: () => ({ method: 'put', url: '/ucp/v1/admin/guards', body: GUARDS }) },
  { tool: 'put_location', args: (s) => ({ id: loc(s), location: { name: `Machine ${s}`, namespace: MACHINE } }), rest: (s) => ({ method: 'put', url: `/ucp/v1/locations/${loc(s)}`, body: { name: `Machine ${s}`, namespace: MACHINE } }) },
  { tool: 'sync_locations', args: () => ({ sync: {} }), rest: () => ({ method: 'post', url: '/ucp/v1/locations/sync', body: {} }) },
  { tool: 'search_locations', args: () => ({ search: {} }), rest: () => ({ method: 'post', url: '/ucp/v1/locations/search', body: {} }) },
  { tool: 'get_inventory', args: (s) => ({ id: loc(s) }), rest: (s) => ({ method: 'get', url: `/ucp/v1/locations/${loc(s)}/inventory` }) },
  { tool: 'get_sku', args: () => ({ sku_id: `${MACHINE}:A1` }), rest: () => ({ method: 'get', url: `/ucp/v1/skus/${MACHINE}:A1` }) },
  { tool: 'update_sku_aliases', args: (s) => ({ sku_id: `${MACHINE}:A1`, aliases: { aliases: [] } }), rest: () => ({ method: 'put', url: `/ucp/v1/skus/${MACHINE}:A1/aliases`, body: { aliases: [] } }) },
  { tool: 'search_catalog', args: () => ({ catalog: { query: 'cola', filters: { namespace: NS } } }), rest: () => ({ method: 'post', url: '/ucp/v1/catalog/search', body: { query: 'cola', filters: { namespace: NS } } }) },
  { tool: 'lookup_catalog', args: () => ({ catalog: { ids: [`${NS}:COLA`, `${NS}:NOPE`] } }), rest: () => ({ method: 'post', url: '/ucp/v1/catalog/lookup', body: { ids: [`${NS}:COLA`, `${NS}:NOPE`] } }) },
  {
    tool: 'create_checkout',
    args: (s) => ({ checkout: { id: session(s), line_items: [{ item: { id: `${NS}:COLA` }, quantity: 1 }] } }),
    rest: (s) => ({ method: 'post', url: '/ucp/v1/checkout-sessions', body: { id: session(s), line_items: [{ item: { id: `${NS}:COLA` }, quantity: 1 }] } }),
  },
  { tool: 'get_checkout', args: (s) => ({ id: session(s) }), rest: (s) => ({ method: 'get', url: `/ucp/v1/checkout-sessions/${session(s)}` }) },
  { tool: 'update_checkout', args: (s) => ({ id: session(s), checkout: { fulfillment: DEST } }), rest: (s) => ({ method: 'put', url: `/ucp/v1/checkout-sessions/${session(s)}`, body: { fulfillment: DEST } }) },
  {
    tool: 'complete_checkout',
    args: (s) => ({ meta: { 'idempotency-key': key(s, 'complete') }, id: session(s), checkout: { confirm: true } }),
    rest: (s) => ({ method: 'post', url: `/ucp/v1/checkout-sessions/${session(s)}/complete`, body: { confirm: true }, key: key(s, 'complete') }),
  },
  { tool: 'get_order', args: (s) => ({ id: session(s) }), rest: (s) => ({ method: 'get', url: `/ucp/v1/orders/${session(s)}` }) },
  { tool: 'list_orders', args: () => ({ kind: 'purchase' }), rest: () => ({ method: 'get', url: '/ucp/v1/orders?kind=purchase' }) },
  { tool: 'cancel_checkout', args: (s) => ({ id: session(s) }), rest: (s) => ({ method: 'post', url: `/ucp/v1/checkout-sessions/${session(s)}/cancel` }) },
  {
    tool: 'update_prices',
    args: (s) => ({ meta: { 'idempotency-key': key(s, 'prices') }, id: loc(s), prices: { confirm: true, prices: [{ item: { id: `${MACHINE}:A1` }, price: { amount: 9999, currency: 'CNY' } }] } }),
    rest: (s) => ({ method: 'put', url: `/ucp/v1/locations/${loc(s)}/prices`, body: { confirm: true, prices: [{ item: { id: `${MACHINE}:A1` }, price: { amount: 9999, currency: 'CNY' } }] }, key: key(s, 'prices') }),
  },
  { tool: 'list_approvals', args: () => ({ status: 'pending' }), rest: () => ({ method: 'get', url: '/ucp/v1/approvals?status=pending' }), after: (b, c) => void (c.approvalId = (b.approvals as { id: string }[])[0]?.id ?? 'none') },
  { tool: 'get_approval', args: (_s, c) => ({ id: c.approvalId }), rest: (_s, c) => ({ method: 'get', url: `/ucp/v1/approvals/${c.approvalId}` }) },
  {
    tool: 'resolve_approval',
    args: () => ({ id: 'apr-unknown', resolution: { approved: false, resolver: { channel: 'dashboard' } } }),
    rest: () => ({ method: 'post', url: '/ucp/v1/approvals/apr-unknown', body: { approved: false, resolver: { channel: 'dashboard' } } }),
  },
  {
    tool: 'withdraw_approval',
    args: () => ({ id: 'apr-unknown', withdrawal: { reason: 'sent by mistake' } }),
    rest: () => ({ method: 'post', url: '/ucp/v1/approvals/apr-unknown/withdraw', body: { reason: 'sent by mistake' } }),
  },
  { tool: 'get_replenishment_plan', args: (s) => ({ location: loc(s) }), rest: (s) => ({ method: 'get', url: `/ucp/v1/replenishment/plan?location=${loc(s)}` }) },
  { tool: 'get_replenishment_score', args: () => ({ horizon_days: 7 }), rest: () => ({ method: 'get', url: '/ucp/v1/replenishment/score?horizon_days=7' }) },
  {
    tool: 'create_run',
    args: (s) => ({ location: loc(s) }),
    rest: (s) => ({ method: 'post', url: `/ucp/v1/replenishment/runs?location=${loc(s)}` }),
    after: (b, c) => void (c.runId = (b.id as string | undefined) ?? 'run-none'),
  },
  { tool: 'list_runs', args: () => ({}), rest: () => ({ method: 'get', url: '/ucp/v1/replenishment/runs' }) },
  { tool: 'get_run', args: (_s, c) => ({ id: c.runId }), rest: (_s, c) => ({ method: 'get', url: `/ucp/v1/replenishment/runs/${c.runId}` }) },
  {
    tool: 'place_run',
    args: (s, c) => ({ meta: { 'idempotency-key': key(s, 'place') }, id: c.runId, run: { confirm: true } }),
    rest: (s, c) => ({ method: 'post', url: `/ucp/v1/replenishment/runs/${c.runId}/place`, body: { confirm: true }, key: key(s, 'place') }),
  },
  { tool: 'receive_run', args: (_s, c) => ({ id: c.runId, receipt: { delivered: [] } }), rest: (_s, c) => ({ method: 'post', url: `/ucp/v1/replenishment/runs/${c.runId}/receive`, body: { delivered: [] } }) },
  {
    tool: 'record_arrival',
    args: (s, c) => ({ meta: { 'idempotency-key': key(s, 'arrive') }, id: c.runId, arrival: { arrived: [{ slot_id: `${loc(s)}-A1`, quantity: 0 }] } }),
    rest: (s, c) => ({ method: 'post', url: `/ucp/v1/replenishment/runs/${c.runId}/arrivals`, body: { arrived: [{ slot_id: `${loc(s)}-A1`, quantity: 0 }] }, key: key(s, 'arrive') }),
  },
  {
    tool: 'close_run',
    args: (s, c) => ({ meta: { 'idempotency-key': key(s, 'close') }, id: c.runId, closing: { reason: 'walk', confirm: true } }),
    rest: (s, c) => ({ method: 'post', url: `/ucp/v1/replenishment/runs/${c.runId}/close`, body: { reason: 'walk', confirm: true }, key: key(s, 'close') }),
  },
  {
    tool: 'drop_refused_lines',
    args: (s, c) => ({ meta: { 'idempotency-key': key(s, 'drop') }, id: c.runId, drop: { confirm: true } }),
    rest: (s, c) => ({ method: 'post', url: `/ucp/v1/replenishment/runs/${c.runId}/drop-refused-lines`, body: { confirm: true }, key: key(s, 'drop') }),
  },
  {
    tool: 'cancel_run',
    args: (s, c) => ({ meta: { 'idempotency-key': key(s, 'cancel') }, id: c.runId, cancel: { reason: 'walk', confirm: true } }),
    rest: (s, c) => ({ method: 'post', url: `/ucp/v1/replenishment/runs/${c.runId}/cancel`, body: { reason: 'walk', confirm: true }, key: key(s, 'cancel') }),
  },
  { tool: 'get_depot', args: () => ({}), rest: () => ({ method: 'get', url: '/ucp/v1/depot' }) },
  {
    tool: 'count_depot_stock',
    args: (s) => ({ meta: { 'idempotency-key': key(s, 'count') }, count: { counts: [{ item: { id: `${MACHINE}:walk-count-${s}` }, quantity: 0 }], reason: 'walk', confirm: true } }),
    rest: (s) => ({ method: 'post', url: '/ucp/v1/depot/counts', body: { counts: [{ item: { id: `${MACHINE}:walk-count-${s}` }, quantity: 0 }], reason: 'walk', confirm: true }, key: key(s, 'count') }),
  },
  {
    tool: 'fill_from_depot',
    args: (s) => ({ meta: { 'idempotency-key': key(s, 'fill') }, fill: { fills: [{ slot_id: `${loc(s)}-A1`, quantity: 1 }], confirm: true } }),
    rest: (s) => ({ method: 'post', url: '/ucp/v1/depot/fill', body: { fills: [{ slot_id: `${loc(s)}-A1`, quantity: 1 }], confirm: true }, key: key(s, 'fill') }),
  },
  {
    tool: 'send_restock',
    args: (s) => ({ meta: { 'idempotency-key': key(s, 'restock') }, id: loc(s), restock: { reference: `rs-${s}`, binding: false, line_items: [{ item: { id: `${MACHINE}:A1` }, quantity: 2, reason: 'walk' }] } }),
    rest: (s) => ({ method: 'post', url: `/ucp/v1/locations/${loc(s)}/restock`, body: { reference: `rs-${s}`, binding: false, line_items: [{ item: { id: `${MACHINE}:A1` }, quantity: 2, reason: 'walk' }] }, key: key(s, 'restock') }),
  },
  { tool: 'create_event', args: (s) => ({ event: { kind: 'agent.note', summary: `walk ${s}`, reasoning: 'parity' } }), rest: (s) => ({ method: 'post', url: '/ucp/v1/events', body: { kind: 'agent.note', summary: `walk ${s}`, reasoning: 'parity' } }) },
  { tool: 'list_events', args: () => ({ kind: 'agent.note' }), rest: () => ({ method: 'get', url: '/ucp/v1/events?kind=agent.note' }) },
  { tool: 'get_fleet', args: () => ({}), rest: () => ({ method: 'get', url: '/ucp/v1/fleet' }) },
  { tool: 'plan_route', args: () => ({}), rest: () => ({ method: 'get', url: '/ucp/v1/visits' }) },
  {
    tool: 'set_route_settings',
    args: (s) => ({ location_id: loc(s), settings: { stop_cost_fen: 3000, visit_days: ['mon', 'thu'], site: `walk ${s}` } }),
    rest: (s) => ({ method: 'put', url: `/ucp/v1/visits/settings/${loc(s)}`, body: { stop_cost_fen: 3000, visit_days: ['mon', 'thu'], site: `walk ${s}` } }),
  },
  {
    tool: 'record_visit',
    args: (s) => ({ meta: { 'idempotency-key': key(s, 'visit') }, visit: { location_id: loc(s), slots: [{ slot_id: `${loc(s)}-A1`, loaded: 0, returned: 1 }], confirm: true } }),
    rest: (s) => ({ method: 'post', url: '/ucp/v1/visits', body: { location_id: loc(s), slots: [{ slot_id: `${loc(s)}-A1`, loaded: 0, returned: 1 }], confirm: true }, key: key(s, 'visit') }),
  },
  { tool: 'get_route_settings', args: () => ({}), rest: () => ({ method: 'get', url: '/ucp/v1/visits/settings' }) },
  { tool: 'get_budget', args: () => ({}), rest: () => ({ method: 'get', url: '/ucp/v1/budget' }) },
  { tool: 'get_daily_sales', args: () => ({}), rest: () => ({ method: 'get', url: '/ucp/v1/sales/daily' }) },
  { tool: 'get_price_audit', args: () => ({}), rest: () => ({ method: 'get', url: '/ucp/v1/price-audit' }) },
  { tool: 'set_kill_switch', args: (s) => ({ kill_switch: { engaged: false, reason: `walk ${s}` } }), rest: (s) => ({ method: 'put', url: '/ucp/v1/admin/kill-switch', body: { engaged: false, reason: `walk ${s}` } }) },
  { tool: 'delete_location', args: (s) => ({ id: loc(s) }), rest: (s) => ({ method: 'delete', url: `/ucp/v1/locations/${loc(s)}` }) },
];

/** What differs between the two sides by construction: each side's own ids, and the clock. */
function normalized(body: unknown, s: Side | null): unknown {
  let text = JSON.stringify(body);
  if (s)
    text = text
      .replace(new RegExp(`(loc|PO-walk|walk-[a-z]+|rs)-${s}\\b`, 'g'), '$1-S')
      .replace(new RegExp(`(Machine|walk) ${s}\\b`, 'g'), '$1 S');
  text = text
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g, 'T')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'U')
    .replace(/"(id|run_id|approval_id|event_id)":"(run|apr|evt)[-_][^"]+"/g, '"$1":"$2-ID"');
  return JSON.parse(text);
}

describe.each(BOTH_DATABASES)('every operation answers the same over REST and over MCP (%s)', (db) => {
  let p: FakePartner;
  let t: TestApp;
  let mcp: Client;
  let routes: Map<string, ToolRoute>;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    p.state.catalog = [{ vendorSku: 'COLA', title: 'Cola 330ml', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 500 }];
    for (const s of ['R', 'M'] as Side[]) p.state.inventory[loc(s)] = [{ vendorSku: 'A1', title: 'Cola', priceFen: 350, stock: 1 }];
    t = await startTestApp({
      db,
      env: {
        SERVICE_ENV: 'production',
        SERVICE_HTTP_VENDORS: JSON.stringify([
          { namespace: NS, baseUrl: p.url, token: p.token, capabilities: ['catalog', 'orders'] },
          { namespace: MACHINE, baseUrl: p.url, token: p.token, capabilities: ['inventory', 'ledger', 'pricing', 'replenishment.recommend', 'replenishment.order'] },
        ]),
        SERVICE_DEFAULT_SUPPLY_NAMESPACE: NS,
        SERVICE_DEFAULT_MACHINE_NAMESPACE: MACHINE,
      },
    });
    // The v2 SDK client (MCP 2026-07-28) on PostgreSQL, the last 1.x client (2025-11-25) on the embedded database.
    mcp = await mcpClient(t, undefined, db === 'postgres' ? '2026' : 'current');
    routes = new Map(toolDefinitions((await t.get('/ucp/v1/openapi.json').expect(200)).body as OpenApiDocumentLike).map((d) => [d.tool.name, d.route]));
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
    await p?.close();
  });

  it('the walk covers every tool', () => {
    expect(WALK.map((s) => s.tool).sort()).toEqual(MCP_TOOLS.map((x) => x.tool).sort());
  });

  it('each operation: same status and same ucp JSON, side by side', async () => {
    const ctx: Record<Side, Ctx> = { R: {}, M: {} };
    const diffs: unknown[] = [];
    for (const step of WALK) {
      const r = step.rest('R', ctx.R);
      let req = r.url.startsWith('/ucp/v1') ? t[r.method === 'delete' ? 'del' : r.method](r.url) : t.get(r.url); // the same credential on both sides (discovery lists namespaces to token holders, issue 26)
      if (r.key) req = req.set('Idempotency-Key', r.key);
      const rest = await (r.body === undefined ? req : req.send(r.body as object));
      step.after?.(rest.body, ctx.R);
      const tool = await callTool(mcp, step.tool, step.args('M', ctx.M));
      step.after?.(tool.body, ctx.M);
      expect(tool.isError).toBe(rest.status >= 400);
      // Reads see one shared state and are compared as they are; writes act on each side's own resources.
      const sided = JSON.stringify(step.args('R', ctx.R)) !== JSON.stringify(step.args('M', ctx.M));
      // The one difference by design: the MCP answer is the REST one in the tool's terms (src/mcp/tools/mcp-answer.rules.ts).
      const left = { tool: step.tool, status: rest.status, body: normalized(inToolTerms(routes.get(step.tool)!, rest.body).body, sided ? 'R' : null) };
      const right = { tool: step.tool, status: tool.status, body: normalized(tool.body, sided ? 'M' : null) };
      if (JSON.stringify(left) !== JSON.stringify(right)) diffs.push({ rest: left, mcp: right });
    }
    expect(diffs).toEqual([]);
  });
});
