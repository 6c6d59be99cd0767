import Ajv2020 from 'ajv/dist/2020';
import { DataSource } from 'typeorm';
import { expectError } from '../support/envelope';
import { BOTH_DATABASES, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, NS, ordersPosted, supplierApp } from '../support/money-fixtures';

type Msg = { code: string; severity: string; path: string };
const FULL = DEST.methods[0].destinations[0];
const ship = (...destinations: object[]) => ({ methods: [{ type: 'shipping', destinations }] });
const LINE = [{ item: { id: `${NS}:COLA` }, quantity: 2, quantity_unit: { unit: 'BX' } }];
const HOUR = 3600_000;
// UCP's reverse_domain_name pattern (schemas/common/types/reverse_domain_name.json).
const REVERSE_DOMAIN = /^[a-z](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9_-]*[a-z0-9_])?)+$/;

/** Issue 17, items 1 and 6: delivery addresses, and the UCP shapes found by UCP's own validators. */
describe.each(BOTH_DATABASES)('checkout and UCP alignment (%s)', (db) => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    t = await supplierApp(p, {}, db === 'embedded' ? 'embedded' : undefined);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await p.close();
  });

  describe('a purchase order needs an address', () => {
    it('an empty destination: not ready, each field named by its path; complete places nothing; a PUT with them readies it', async () => {
      const created = await t.post('/ucp/v1/checkout-sessions', { id: 'PO-addr', line_items: LINE, fulfillment: ship({}) });
      expect(created.status).toBe(201);
      expect(created.body.status).toBe('incomplete');
      const missing = (created.body.messages as Msg[]).filter((m) => m.code === 'missing');
      expect(missing.map((m) => m.path)).toEqual([
        '$.fulfillment.methods[0].destinations[0].street_address',
        '$.fulfillment.methods[0].destinations[0].first_name',
        '$.fulfillment.methods[0].destinations[0].phone_number',
      ]);
      expect(missing.every((m) => m.severity === 'recoverable')).toBe(true);

      const refused = await t.post('/ucp/v1/checkout-sessions/PO-addr/complete', { confirm: true });
      expectError(refused, 409, 'invalid_state');
      expect(refused.body.messages.map((m: Msg) => m.path)).toContain('$.fulfillment.methods[0].destinations[0].phone_number');
      expect(ordersPosted(p, 'PO-addr')).toBe(0);

      const fixed = await t.put('/ucp/v1/checkout-sessions/PO-addr', { fulfillment: DEST });
      expect(fixed.status).toBe(200);
      expect(fixed.body.status).toBe('ready_for_complete');
      expect(fixed.body.messages).toEqual([]);
      const done = await t.post('/ucp/v1/checkout-sessions/PO-addr/complete', { confirm: true });
      expect(done.status).toBe(200);
      expect(ordersPosted(p, 'PO-addr')).toBe(1);
      const sent = p.requestsTo('POST /orders').find((r) => (r.body as { ref: string }).ref === 'PO-addr')!;
      expect((sent.body as { fulfillment: unknown }).fulfillment).toEqual({ method: 'shipping', destination: FULL });
    });

    it.each([
      ['a blank phone number', ship({ ...FULL, phone_number: '   ' }), '$.fulfillment.methods[0].destinations[0].phone_number'],
      ['no first name', ship({ street_address: FULL.street_address, phone_number: FULL.phone_number }), '$.fulfillment.methods[0].destinations[0].first_name'],
      ['a second destination without a street', ship(FULL, { ...FULL, street_address: '' }), '$.fulfillment.methods[0].destinations[1].street_address'],
      ['a second method without destinations', { methods: [...DEST.methods, { type: 'pickup', destinations: [] }] }, '$.fulfillment.methods[1].destinations'],
    ])('%s keeps the session incomplete with that path', async (_what, fulfillment, path) => {
      const res = await t.post('/ucp/v1/checkout-sessions', { line_items: LINE, fulfillment });
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('incomplete');
      expect(res.body.messages).toEqual([expect.objectContaining({ code: 'missing', severity: 'recoverable', path })]);
      expectError(await t.post(`/ucp/v1/checkout-sessions/${res.body.id}/complete`, { confirm: true }), 409, 'invalid_state');
      expect(ordersPosted(p, res.body.id)).toBe(0);
    });
  });

  it('sessions carry expires_at; past it, complete places nothing until a PUT prices the session again', async () => {
    const before = Date.now();
    const created = await t.post('/ucp/v1/checkout-sessions', { id: 'PO-exp', line_items: LINE, fulfillment: DEST });
    expect(created.body.status).toBe('ready_for_complete');
    expect(created.body.expires_at).toMatch(/\+08:00$/);
    const expires = Date.parse(created.body.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 6 * HOUR - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 6 * HOUR + 1000);

    await t.app.get(DataSource).query(`UPDATE checkout_sessions SET priced_at = now() - interval '7 hours' WHERE id = 'PO-exp'`);
    const late = await t.post('/ucp/v1/checkout-sessions/PO-exp/complete', { confirm: true });
    expectError(late, 409, 'invalid_state');
    expect(late.body.messages).toContainEqual(expect.objectContaining({ code: 'session_expired', severity: 'recoverable', path: '$.expires_at' }));
    expect(Date.parse(late.body.expires_at)).toBeLessThan(Date.now());
    expect(ordersPosted(p, 'PO-exp')).toBe(0);

    const repriced = await t.put('/ucp/v1/checkout-sessions/PO-exp', {});
    expect(repriced.body.status).toBe('ready_for_complete');
    expect(Date.parse(repriced.body.expires_at)).toBeGreaterThan(Date.now() + 5 * HOUR);
    expect((await t.post('/ucp/v1/checkout-sessions/PO-exp/complete', { confirm: true })).status).toBe(200);
    expect(ordersPosted(p, 'PO-exp')).toBe(1);
  });

  it('a line whose item is unknown leaves out what the service cannot know and is flagged', async () => {
    const res = await t.post('/ucp/v1/checkout-sessions', { line_items: [{ item: { id: `${NS}:NOPE` }, quantity: 1 }, ...LINE], fulfillment: DEST });
    expect(res.body.status).toBe('incomplete');
    expect(res.body.line_items[0].item).toEqual({ id: `${NS}:NOPE`, quantity_unit: 'EA' });
    expect(res.body.line_items[0]).not.toHaveProperty('item.title');
    expect(res.body.messages).toEqual([expect.objectContaining({ code: 'item_unavailable', path: '$.line_items[0].item.id' })]);
    expect(res.body.line_items[1].item).toEqual({ id: `${NS}:COLA`, title: 'Cola 330ml', price: { amount: 4800, currency: 'CNY' }, quantity_unit: 'BX' });
  });

  it('permalink_url is absolute on the session, GET /orders/{id} and the purchase list', async () => {
    await t.post('/ucp/v1/checkout-sessions', { id: 'PO-link', line_items: LINE, fulfillment: DEST });
    const done = await t.post('/ucp/v1/checkout-sessions/PO-link/complete', { confirm: true });
    // Production links come from SERVICE_PUBLIC_URL (test-app's production default), never from the Host header.
    const absolute = /^http:\/\/vending\.test\/ucp\/v1\/orders\/PO-link$/;
    expect(done.body.order.permalink_url).toMatch(absolute);
    const one = await t.get('/ucp/v1/orders/PO-link');
    expect(one.status).toBe(200);
    expect(one.body.permalink_url).toMatch(absolute);
    const list = await t.get('/ucp/v1/orders?kind=purchase');
    expect(list.body.orders.find((o: { id: string }) => o.id === 'PO-link').permalink_url).toMatch(absolute);
  });

  it('payment handlers are keyed by a reverse-domain name, with one config in discovery and in sessions', async () => {
    const profile = (await t.raw.get('/.well-known/ucp').expect(200)).body.ucp;
    const session = (await t.post('/ucp/v1/checkout-sessions', { line_items: LINE, fulfillment: DEST })).body;
    for (const handlers of [profile.payment_handlers, session.ucp.payment_handlers]) {
      for (const name of Object.keys(handlers)) expect(name).toMatch(REVERSE_DOMAIN);
      expect(handlers['com.example.svc.supplier_account'][0].id).toBe('supplier_account');
    }
    expect(session.ucp.payment_handlers).toEqual(profile.payment_handlers);
  });

  it('each capability names an absolute schema URL that serves a JSON Schema real answers satisfy', async () => {
    const profile = (await t.raw.get('/.well-known/ucp').expect(200)).body.ucp;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('date-time', true);
    const schemas: Record<string, object> = {};
    for (const [name, [entry]] of Object.entries(profile.capabilities as Record<string, { schema: string }[]>)) {
      const url = new URL(entry.schema);
      expect(`${url.protocol}//${url.host}`).toBe('http://vending.test');
      const res = await t.raw.get(url.pathname); // no token: like the profile
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/schema\+json/);
      const schema = JSON.parse(res.text);
      expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: entry.schema, title: name });
      schemas[name] = schema;
    }
    expect(Object.keys(schemas)).toHaveLength(11); // UCP's checkout and catalog (search, lookup) and the 8 extensions
    const session = (await t.post('/ucp/v1/checkout-sessions', { line_items: LINE, fulfillment: DEST })).body;
    const search = (await t.post('/ucp/v1/catalog/search', { filters: { namespace: NS } })).body;
    const validOrder = ajv.compile(schemas['com.example.svc.order']);
    expect(validOrder(session) ? [] : validOrder.errors).toEqual([]);
    const validSku = ajv.compile(schemas['com.example.svc.sku']);
    expect(validSku(search) ? [] : validSku.errors).toEqual([]);
    expect(validSku({ products: 'nope' })).toBe(false);
    // Under their UCP names (issue 29): the same answers satisfy the checkout and catalog schemas discovery names.
    const validCheckout = ajv.compile(schemas['dev.ucp.shopping.checkout']);
    expect(validCheckout(session) ? [] : validCheckout.errors).toEqual([]);
    const validSearch = ajv.compile(schemas['dev.ucp.shopping.catalog.search']);
    expect(validSearch(search) ? [] : validSearch.errors).toEqual([]);
    expect(profile.capabilities['dev.ucp.shopping.checkout'][0].spec).toBe('https://ucp.dev/2026-08-25/specification/checkout/');
    expect(profile.services['dev.ucp.shopping'].map((s: { transport: string }) => s.transport)).toEqual(['rest', 'mcp']);
    expectError(await t.raw.get('/.well-known/ucp/schemas/com.example.svc.nope.json'), 404, 'not_found');
  });

  it('catalog search and lookup answer products[] each with its variants[]', async () => {
    const search = await t.post('/ucp/v1/catalog/search', { query: 'cola', filters: { namespace: NS } });
    expect(search.status).toBe(200);
    expect(search.body.variants).toBeUndefined();
    expect(search.body.products).toEqual([
      expect.objectContaining({ id: `${NS}:COLA`, title: 'Cola 330ml', price_range: { min: { amount: 200, currency: 'CNY' }, max: { amount: 200, currency: 'CNY' } } }),
    ]);
    expect(search.body.products[0].variants).toEqual([expect.objectContaining({ id: `${NS}:COLA`, price: { amount: 200, currency: 'CNY' }, quantity_unit: 'EA' })]);
    const derived = await t.post('/ucp/v1/catalog/search', { query: 'box only', filters: { namespace: NS } });
    expect(derived.body.messages).toContainEqual(expect.objectContaining({ code: 'price_derived', path: '$.products[0].variants[0].price' }));

    const lookup = await t.post('/ucp/v1/catalog/lookup', { ids: [`${NS}:WATER`, `${NS}:NOPE`, `${NS}:COLA`] });
    expect(lookup.status).toBe(200);
    expect(lookup.body.variants).toBeUndefined();
    expect(lookup.body.products.map((x: { id: string }) => x.id)).toEqual([`${NS}:WATER`, `${NS}:COLA`]);
    expect(lookup.body.products[1].variants[0].inputs).toEqual([{ id: `${NS}:COLA`, match: 'exact' }]);
    expect(lookup.body.messages).toContainEqual(expect.objectContaining({ code: 'not_found', path: '$.ids[1]' }));
  });
});
