import { buildOpenApiDocument } from '../../src/openapi';
import { OpenApiValidator } from '../support/openapi-validator';
import { connectAgent, pendingAuthorization } from '../support/oauth-agent';
import { startTestApp, TestApp } from '../support/test-app';

type Res = { status: number; body: any };

/**
 * The document describes what the service really answers: a staging service (simulated machines and supplier) runs
 * every operation, and each answer (successes and errors) is validated against the schema the code generates for that
 * operation and status, with object schemas closed, so a field added, renamed or retyped on either side fails here.
 */
describe('OpenAPI document against real answers', () => {
  let t: TestApp;
  let v: OpenApiValidator;
  const problems: string[] = [];
  const seen = new Set<string>();
  const check = (method: string, path: string, res: Res): any => {
    seen.add(`${method} ${path}`);
    problems.push(...v.problems(method, path, res));
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestApp({ db: 'embedded', env: { SERVICE_STAGING_SEED: 'on' } });
    v = new OpenApiValidator(await buildOpenApiDocument(t.app));
  }, 120_000);
  afterAll(() => t.close());

  it('every operation answers what its schema says', async () => {
    check('GET', '/healthz', await t.raw.get('/healthz'));
    check('GET', '/readyz', await t.raw.get('/readyz'));
    check('GET', '/.well-known/ucp', await t.raw.get('/.well-known/ucp'));
    check('GET', '/ucp/v1/namespaces', await t.get('/ucp/v1/namespaces'));
    check('GET', '/ucp/v1/namespaces', await t.raw.get('/ucp/v1/namespaces'));
    const locs = check('POST', '/ucp/v1/locations/search', await t.post('/ucp/v1/locations/search', {}));
    const loc = locs.locations[0].id as string;
    check('POST', '/ucp/v1/locations/sync', await t.post('/ucp/v1/locations/sync', {}));
    check('POST', '/ucp/v1/locations/sync', await t.post('/ucp/v1/locations/sync', { sales_window_days: 3 }));
    const sup = check('POST', '/ucp/v1/catalog/search', await t.post('/ucp/v1/catalog/search', { filters: { namespace: 'sim-supply' }, pagination: { limit: 2 } }));
    const mac = check('POST', '/ucp/v1/catalog/search', await t.post('/ucp/v1/catalog/search', { filters: { namespace: 'sim-machine', location: loc }, pagination: { limit: 2 } }));
    check('POST', '/ucp/v1/catalog/search', await t.post('/ucp/v1/catalog/search', { filters: { namespace: 'nope-supply' } }));
    // Products (UCP layout) each with its variants; the tests below use the variants.
    sup.variants = sup.products.flatMap((p: { variants: unknown[] }) => p.variants);
    mac.variants = mac.products.flatMap((p: { variants: unknown[] }) => p.variants);
    check('POST', '/ucp/v1/catalog/lookup', await t.post('/ucp/v1/catalog/lookup', { ids: [sup.variants[0].id, mac.variants[0].id, 'sim-supply:nope'], filters: { location: loc } }));
    const skuPath = `/ucp/v1/skus/${encodeURIComponent(mac.variants[0].id)}`;
    check('GET', '/ucp/v1/skus/{sku_id}', await t.get(`${skuPath}?location=${loc}`));
    check('PUT', '/ucp/v1/skus/{sku_id}/aliases', await t.put(`${skuPath}/aliases`, { aliases: [{ sku_id: sup.variants[1].id, source: 'manual' }] }));
    const sales = check('GET', '/ucp/v1/orders', await t.get('/ucp/v1/orders?kind=sale&limit=5&trade_status=all'));
    expect(sales.orders.length).toBeGreaterThan(0);
    check('GET', '/ucp/v1/orders/{id}', await t.get(`/ucp/v1/orders/${sales.orders[0].id}`));
    check('GET', '/ucp/v1/orders', await t.get('/ucp/v1/orders?trade_status=bogus'));
    check('GET', '/ucp/v1/locations/{id}/inventory', await t.get(`/ucp/v1/locations/${loc}/inventory`));
    check('PUT', '/ucp/v1/locations/{id}', await t.put('/ucp/v1/locations/x-new-1', { name: 'New one', profile: { city: 'Shanghai' } }));
    check('DELETE', '/ucp/v1/locations/{id}', await t.del('/ucp/v1/locations/x-new-1'));
    check('DELETE', '/ucp/v1/locations/{id}', await t.del('/ucp/v1/locations/x-new-1'));

    check('GET', '/ucp/v1/replenishment/plan', await t.get(`/ucp/v1/replenishment/plan?location=${loc}`));
    const run = check('POST', '/ucp/v1/replenishment/runs', await t.post(`/ucp/v1/replenishment/runs?location=${loc}`));
    check('GET', '/ucp/v1/replenishment/runs', await t.get('/ucp/v1/replenishment/runs'));
    check('GET', '/ucp/v1/replenishment/runs/{id}', await t.get(`/ucp/v1/replenishment/runs/${run.id}`));
    const placed = check('POST', '/ucp/v1/replenishment/runs/{id}/place', await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).set('Idempotency-Key', 'conf-run-1'));
    check('POST', '/ucp/v1/replenishment/runs/{id}/place', await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`));
    // Warehouse arrival of the first line, then the spec's receive of another (it delivers the run).
    const first = placed.lines[0].slot_id;
    const second = (placed.lines.find((l: { slot_id: string }) => l.slot_id !== first) ?? placed.lines[0]).slot_id;
    check('POST', '/ucp/v1/replenishment/runs/{id}/arrivals', await t.post(`/ucp/v1/replenishment/runs/${run.id}/arrivals`, { arrived: [{ slot_id: first, quantity: 1 }] }).set('Idempotency-Key', 'conf-arr-1'));
    check('POST', '/ucp/v1/replenishment/runs/{id}/arrivals', await t.post(`/ucp/v1/replenishment/runs/${run.id}/arrivals`, { arrived: [{ slot_id: first, quantity: 1 }] }));
    check('POST', '/ucp/v1/replenishment/runs/{id}/arrivals', await t.post(`/ucp/v1/replenishment/runs/${run.id}/arrivals`, { arrived: [{ slot_id: 'nope', quantity: 1 }] }));
    check('POST', '/ucp/v1/replenishment/runs/{id}/receive', await t.post(`/ucp/v1/replenishment/runs/${run.id}/receive`, { delivered: [{ slot_id: second, quantity: 1 }] }));
    check('POST', '/ucp/v1/replenishment/runs/{id}/close', await t.post(`/ucp/v1/replenishment/runs/${run.id}/close`, { reason: 'conformance', confirm: true }));
    check('POST', '/ucp/v1/replenishment/runs/{id}/close', await t.post(`/ucp/v1/replenishment/runs/${run.id}/close`, { reason: 'conformance' }));
    check('GET', '/ucp/v1/replenishment/score', await t.get('/ucp/v1/replenishment/score'));
    check('GET', '/ucp/v1/depot', await t.get('/ucp/v1/depot'));
    check('POST', '/ucp/v1/replenishment/runs/{id}/drop-refused-lines', await t.post(`/ucp/v1/replenishment/runs/${run.id}/drop-refused-lines`, { confirm: true }));
    check('POST', '/ucp/v1/replenishment/runs/{id}/cancel', await t.post(`/ucp/v1/replenishment/runs/${run.id}/cancel`, { confirm: true }));
    check('POST', '/ucp/v1/depot/counts', await t.post('/ucp/v1/depot/counts', { counts: [{ item: { id: placed.lines[0].item.id }, quantity: 2 }], reason: 'conformance', confirm: true }));
    check('POST', '/ucp/v1/depot/fill', await t.post('/ucp/v1/depot/fill', { fills: [{ slot_id: placed.lines[0].slot_id, quantity: 1 }], confirm: true }));
    check('POST', '/ucp/v1/depot/fill', await t.post('/ucp/v1/depot/fill', { fills: [{ slot_id: placed.lines[0].slot_id, quantity: 50 }], confirm: true }));
    const visit = (loaded: number) => ({ location_id: loc, slots: [{ slot_id: placed.lines[0].slot_id, loaded, returned: 0 }], confirm: true });
    check('POST', '/ucp/v1/visits', await t.post('/ucp/v1/visits', visit(1)).set('Idempotency-Key', 'conf-visit-1'));
    check('POST', '/ucp/v1/visits', await t.post('/ucp/v1/visits', visit(50)));
    check('POST', '/ucp/v1/visits', await t.post('/ucp/v1/visits', { ...visit(1), confirm: false }));
    check('GET', '/ucp/v1/visits/settings', await t.get('/ucp/v1/visits/settings'));
    check('PUT', '/ucp/v1/visits/settings/{location_id}', await t.put(`/ucp/v1/visits/settings/${loc}`, { stop_cost_fen: 2500, visit_days: ['mon', 'fri'], site: 'Tower A' }));
    check('PUT', '/ucp/v1/visits/settings/{location_id}', await t.put(`/ucp/v1/visits/settings/${loc}`, { visit_days: [] }));
    check('PUT', '/ucp/v1/visits/settings/{location_id}', await t.put('/ucp/v1/visits/settings/nope', { site: null }));
    const restockRun = check('POST', '/ucp/v1/replenishment/runs', await t.post(`/ucp/v1/replenishment/runs?location=${loc}&fulfiller=machine_restock`));
    check('POST', '/ucp/v1/replenishment/runs/{id}/place', await t.post(`/ucp/v1/replenishment/runs/${restockRun.id}/place`));
    // A supply-checkout run needs {confirm: true}: the refusal must be a code the operation documents.
    const supplyRun = check('POST', '/ucp/v1/replenishment/runs', await t.post(`/ucp/v1/replenishment/runs?location=${loc}&fulfiller=supply_checkout`));
    const refused = await t.post(`/ucp/v1/replenishment/runs/${supplyRun.id}/place`, { confirm: 'true' });
    expect(refused.status).toBe(400);
    expect(refused.body.messages[0].code).toBe('confirmation_required');
    check('POST', '/ucp/v1/replenishment/runs/{id}/place', refused);

    const dest = { methods: [{ type: 'shipping', destinations: [{ street_address: '1 Road', first_name: 'Li', phone_number: '123' }] }] };
    const line = (quantity: number) => [{ item: { id: sup.variants[0].id }, quantity }];
    const s = check('POST', '/ucp/v1/checkout-sessions', await t.post('/ucp/v1/checkout-sessions', { line_items: line(1) }).set('Idempotency-Key', 'conf-co-1').set('UCP-Agent', 'profile="https://agent.example/p"'));
    check('GET', '/ucp/v1/checkout-sessions/{id}', await t.get(`/ucp/v1/checkout-sessions/${s.id}`));
    check('PUT', '/ucp/v1/checkout-sessions/{id}', await t.put(`/ucp/v1/checkout-sessions/${s.id}`, { line_items: line(2), fulfillment: dest }));
    check('POST', '/ucp/v1/checkout-sessions/{id}/complete', await t.post(`/ucp/v1/checkout-sessions/${s.id}/complete`, { confirm: 'yes' }));
    const done = check('POST', '/ucp/v1/checkout-sessions/{id}/complete', await t.post(`/ucp/v1/checkout-sessions/${s.id}/complete`, { confirm: true }));
    expect(done.status).toBe('completed');
    check('POST', '/ucp/v1/checkout-sessions/{id}/complete', await t.post(`/ucp/v1/checkout-sessions/${s.id}/complete`, { confirm: true }));
    check('GET', '/ucp/v1/orders/{id}', await t.get(`/ucp/v1/orders/${s.id}`));
    check('GET', '/ucp/v1/orders', await t.get('/ucp/v1/orders?kind=purchase'));
    // A line whose item the supplier does not carry: no title, no price, its message says why.
    const unknown = check('POST', '/ucp/v1/checkout-sessions', await t.post('/ucp/v1/checkout-sessions', { line_items: [{ item: { id: 'sim-supply:nope' }, quantity: 1 }], fulfillment: dest }));
    expect(unknown.line_items[0].item).toEqual({ id: 'sim-supply:nope', quantity_unit: 'EA' });
    const s2 = check('POST', '/ucp/v1/checkout-sessions', await t.post('/ucp/v1/checkout-sessions', { line_items: line(1) }));
    check('POST', '/ucp/v1/checkout-sessions/{id}/cancel', await t.post(`/ucp/v1/checkout-sessions/${s2.id}/cancel`));
    check('GET', '/ucp/v1/checkout-sessions/{id}', await t.get('/ucp/v1/checkout-sessions/nope'));
    const big = check('POST', '/ucp/v1/checkout-sessions', await t.post('/ucp/v1/checkout-sessions', { line_items: line(5000), fulfillment: dest }));
    expect(big.status).toBe('requires_escalation');

    const [item, other] = mac.variants;
    const prices = (id: string, amount: number) => ({ prices: [{ item: { id }, price: { amount, currency: 'CNY' } }], confirm: true });
    check('PUT', '/ucp/v1/locations/{id}/prices', await t.put(`/ucp/v1/locations/${loc}/prices`, prices(item.id, item.price.amount + 1)));
    check('PUT', '/ucp/v1/locations/{id}/prices', await t.put(`/ucp/v1/locations/${loc}/prices`, prices(other.id, other.price.amount * 3)));
    const aps = check('GET', '/ucp/v1/approvals', await t.get('/ucp/v1/approvals?status=all'));
    expect(aps.approvals.length).toBeGreaterThanOrEqual(2);
    check('GET', '/ucp/v1/approvals/{id}', await t.get(`/ucp/v1/approvals/${aps.approvals[0].id}`));
    check('POST', '/ucp/v1/approvals/{id}', await t.post(`/ucp/v1/approvals/${aps.approvals[0].id}`, { approved: false, resolver: { channel: 'dashboard' } }));
    check('POST', '/ucp/v1/approvals/{id}', await t.post(`/ucp/v1/approvals/${aps.approvals[0].id}`, { approved: true, resolver: { channel: 'dashboard' } }));
    check('POST', '/ucp/v1/approvals/{id}', await t.post(`/ucp/v1/approvals/${aps.approvals[1].id}`, { approved: true, resolver: { channel: 'chat_tool', chat_id: 'x', sender_id: 'y' } }));
    const parked = check('PUT', '/ucp/v1/locations/{id}/prices', await t.put(`/ucp/v1/locations/${loc}/prices`, prices(item.id, (item.price.amount + 1) * 3)));
    const wid = parked.pending[0].approval_id as string;
    check('POST', '/ucp/v1/approvals/{id}/withdraw', await t.post(`/ucp/v1/approvals/${wid}/withdraw`, { reason: 'sent by mistake' }));
    check('POST', '/ucp/v1/approvals/{id}/withdraw', await t.post(`/ucp/v1/approvals/${wid}/withdraw`, { reason: 'twice' }));
    check('POST', '/ucp/v1/approvals/{id}/withdraw', await t.post(`/ucp/v1/approvals/${wid}/withdraw`, {}));
    check('POST', '/ucp/v1/approvals/{id}/withdraw', await t.post('/ucp/v1/approvals/nope/withdraw', { reason: 'x' }));
    check('POST', '/ucp/v1/locations/{id}/restock', await t.post(`/ucp/v1/locations/${loc}/restock`, { reference: 'conf-r-1', binding: true, line_items: [{ item: { id: item.id }, quantity: 2 }] }));
    check('POST', '/ucp/v1/events', await t.post('/ucp/v1/events', { kind: 'note', summary: 's', reasoning: 'r', location: loc }));
    check('POST', '/ucp/v1/events', await t.post('/ucp/v1/events', { kind: 'note' }));
    check('GET', '/ucp/v1/events', await t.get('/ucp/v1/events?limit=20'));
    const rules = check('GET', '/ucp/v1/admin/guards', await t.get('/ucp/v1/admin/guards'));
    check('PUT', '/ucp/v1/admin/guards', await t.put('/ucp/v1/admin/guards', rules.guards));
    check('PUT', '/ucp/v1/admin/guards', await t.put('/ucp/v1/admin/guards', { budget: { perOrderFen: 1.5 } }));
    check('PUT', '/ucp/v1/admin/kill-switch', await t.put('/ucp/v1/admin/kill-switch', { engaged: true, reason: 'conformance test' }));
    check('GET', '/ucp/v1/fleet', await t.get('/ucp/v1/fleet'));
    check('GET', '/ucp/v1/fleet', await t.raw.get('/ucp/v1/fleet'));
    check('GET', '/ucp/v1/visits', await t.get('/ucp/v1/visits'));
    check('GET', '/ucp/v1/budget', await t.get('/ucp/v1/budget'));
    check('GET', '/ucp/v1/sales/daily', await t.get('/ucp/v1/sales/daily'));
    check('GET', '/ucp/v1/sales/daily', await t.get('/ucp/v1/sales/daily?from=2026-12-31&to=2026-01-01'));
    check('GET', '/ucp/v1/price-audit', await t.get('/ucp/v1/price-audit'));
    check('GET', '/ucp/v1/price-audit', await t.get('/ucp/v1/price-audit?location=bad%20id'));
    check('POST', '/ucp/v1/auth/session', await t.raw.post('/ucp/v1/auth/session').send({ token: t.token }));
    check('POST', '/ucp/v1/auth/session', await t.raw.post('/ucp/v1/auth/session').send({ token: 'wrong' }));
    check('POST', '/ucp/v1/auth/session', await t.raw.post('/ucp/v1/auth/session').set('Origin', 'https://evil.example').send({ token: t.token }));
    check('DELETE', '/ucp/v1/auth/session', await t.raw.delete('/ucp/v1/auth/session'));
    check('POST', '/ucp/v1/checkout-sessions/{id}/complete', await t.post(`/ucp/v1/checkout-sessions/${big.id}/complete`, { confirm: true }));
    // Issue 36: a person's agent connections (the consent page's calls, the list, disconnect).
    const uid = await pendingAuthorization(t.url);
    check('GET', '/ucp/v1/agents/requests/{uid}', await t.get(`/ucp/v1/agents/requests/${uid}`));
    check('GET', '/ucp/v1/agents/requests/{uid}', await t.get('/ucp/v1/agents/requests/nope'));
    check('POST', '/ucp/v1/agents/requests/{uid}', await t.post(`/ucp/v1/agents/requests/${uid}`, { approve: true }));
    check('POST', '/ucp/v1/agents/requests/{uid}', await t.post(`/ucp/v1/agents/requests/${uid}`, { approve: false }));
    const agent = await connectAgent(t, { scope: 'read' });
    check('GET', '/ucp/v1/agents', await t.get('/ucp/v1/agents'));
    check('GET', '/ucp/v1/agents', await t.raw.get('/ucp/v1/agents').set('Authorization', `Bearer ${agent.accessToken}`));
    check('DELETE', '/ucp/v1/agents/{client_id}', await t.del(`/ucp/v1/agents/${agent.clientId}`));
    check('DELETE', '/ucp/v1/agents/{client_id}', await t.del(`/ucp/v1/agents/${agent.clientId}`));

    expect(problems).toEqual([]);
    // Every documented operation was exercised (a new route needs a line here).
    const documented = Object.entries(v.operations()).map(([k]) => k);
    expect(documented.filter((op) => !seen.has(op))).toEqual([]);
  });
});
