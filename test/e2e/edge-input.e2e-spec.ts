/**
 * Issue 11 findings: hostile values are refused at the edge with 400 `invalid`/`missing` and a JSONPath, never a
 * 5xx, never reaching PostgreSQL or arithmetic. Each case here answered 500 (or was wrongly accepted) before.
 */
import request from 'supertest';
import { expectError } from '../support/envelope';
import { TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, NS, readySession, supplierApp } from '../support/money-fixtures';

const pathOf = (res: { body: { messages: { path: string }[] } }) => res.body.messages[0].path;

describe('edge checks (issue 11)', () => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    t = await supplierApp(p);
    await readySession(t, 'EDGE-1');
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });

  const rawJson = (method: 'post' | 'put', path: string, text: string) =>
    request(t.app.getHttpServer())[method](path).set('Authorization', `Bearer ${t.token}`).set('Content-Type', 'application/json').send(text);

  describe('NUL characters', () => {
    it('in a path segment: GET /orders/%00 is 400 at $.id', async () => {
      const res = await t.get('/ucp/v1/orders/%00');
      expectError(res, 400, 'invalid');
      expect(pathOf(res)).toBe('$.id');
    });
    it('in a query value: GET /events?location=a%00b is 400 at $.location', async () => {
      const res = await t.get('/ucp/v1/events?location=a%00b');
      expectError(res, 400, 'invalid');
      expect(pathOf(res)).toBe('$.location');
    });
    it('in a body string: POST /events with \\u0000 in reasoning is 400 at $.reasoning', async () => {
      const res = await t.post('/ucp/v1/events', { kind: 'note', summary: 'x', reasoning: 'a\u0000b' });
      expectError(res, 400, 'invalid');
      expect(pathOf(res)).toBe('$.reasoning');
    });
    it('in a free-form object stored as jsonb: PUT /locations/{id} profile', async () => {
      const res = await t.put('/ucp/v1/locations/loc-9', { name: 'M', profile: { city: 'x\u0000' } });
      expectError(res, 400, 'invalid');
      expect(pathOf(res)).toBe('$.profile.city');
    });
    it('in an object key', async () => {
      const res = await t.put('/ucp/v1/locations/loc-9', { name: 'M', profile: { ['ci\u0000ty']: 'x' } });
      expectError(res, 400, 'invalid');
    });
  });

  it('a lone surrogate in a body string is 400 (PostgreSQL refuses it in jsonb)', async () => {
    const res = await rawJson('post', '/ucp/v1/checkout-sessions', `{"line_items":[],"fulfillment":{"methods":[{"type":"shipping","destinations":[{"first_name":"\\ud800"}]}]}}`);
    expectError(res, 400, 'invalid');
    expect(pathOf(res)).toBe('$.fulfillment.methods[0].destinations[0].first_name');
  });

  it('a string over its length limit is 400 (path segment, query value)', async () => {
    expectError(await t.get(`/ucp/v1/orders/${'a'.repeat(301)}`), 400, 'invalid');
    expectError(await t.get(`/ucp/v1/events?kind=${'k'.repeat(1001)}`), 400, 'invalid');
  });

  describe('integers past the safe range or the field maximum', () => {
    it('checkout create with quantity 9223372036854775807 is 400 at the quantity', async () => {
      const res = await rawJson('post', '/ucp/v1/checkout-sessions', `{"line_items":[{"item":{"id":"${NS}:COLA"},"quantity":9223372036854775807}],"fulfillment":${JSON.stringify(DEST)}}`);
      expectError(res, 400, 'invalid');
      expect(pathOf(res)).toBe('$.line_items[0].quantity');
    });
    it('checkout update with quantity 9223372036854775807 is 400', async () => {
      const res = await rawJson('put', '/ucp/v1/checkout-sessions/EDGE-1', `{"line_items":[{"item":{"id":"${NS}:COLA"},"quantity":9223372036854775807}]}`);
      expectError(res, 400, 'invalid');
    });
    it('a quantity above its stated maximum (100000) is 400; a number that overflows to Infinity is 400', async () => {
      const over = await t.put('/ucp/v1/checkout-sessions/EDGE-1', { line_items: [{ item: { id: `${NS}:COLA` }, quantity: 100001 }] });
      expectError(over, 400, 'invalid');
      expect(pathOf(over)).toBe('$.line_items[0].quantity');
      expectError(await rawJson('put', '/ucp/v1/checkout-sessions/EDGE-1', `{"line_items":[{"item":{"id":"${NS}:COLA"},"quantity":1e400}]}`), 400, 'invalid');
    });
    it('a price above its maximum is 400', async () => {
      const res = await t.put('/ucp/v1/locations/loc-1/prices', { prices: [{ item: { id: 'acme-machine:A1' }, price: { amount: 10_000_001, currency: 'CNY' } }], confirm: true });
      expectError(res, 400, 'invalid');
    });
  });

  it('dates out of range in a query are 400, not a PostgreSQL error', async () => {
    for (const q of ['from=0000-01-01T00:00:00Z', 'to=9999-12-31T23:59:59-23:59', 'updated_from=3000-01-01T00:00:00Z']) {
      const res = await t.get(`/ucp/v1/orders?${q}`);
      expectError(res, 400, 'invalid');
    }
  });

  describe('a forged cursor never reaches PostgreSQL', () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    it.each([
      ['a sales cursor with an impossible date', b64(['taken', '2026-02-31T00:00:00.000000Z', 'O-1'])],
      ['a sales cursor with year 0', b64(['taken', '0000-01-01T00:00:00.000000Z', 'O-1'])],
      ['a sales cursor with a NUL in the id', b64(['taken', '2026-01-01T00:00:00.000000Z', 'O\u00001'])],
    ])('%s: 400 at $.cursor', async (_name, cursor) => {
      const res = await t.get(`/ucp/v1/orders?cursor=${cursor}`);
      expectError(res, 400, 'invalid');
      expect(pathOf(res)).toBe('$.cursor');
    });
    it.each([
      ['a purchase cursor far in the future', b64(['+275760-09-13T00:00:00.000Z', 'PO-1'])],
      ['a purchase cursor with a NUL in the id', b64(['2026-01-01T00:00:00.000Z', 'P\u0000'])],
    ])('%s: 400 at $.cursor', async (_name, cursor) => {
      const res = await t.get(`/ucp/v1/orders?kind=purchase&cursor=${cursor}`);
      expectError(res, 400, 'invalid');
      expect(pathOf(res)).toBe('$.cursor');
    });
  });

  it('PUT /checkout-sessions/{id} with a null line item is 400, not a TypeError', async () => {
    const res = await t.put('/ucp/v1/checkout-sessions/EDGE-1', { line_items: [null] });
    expectError(res, 400, 'invalid');
    expect(pathOf(res)).toMatch(/^\$\.line_items/);
  });

  it('a body that must be an object and is an array, string, number or null is 400 at $', async () => {
    for (const text of ['[]', '"x"', '3', 'null', 'true']) {
      const res = await rawJson('post', '/ucp/v1/checkout-sessions', text);
      expectError(res, 400, 'invalid');
      expect(pathOf(res)).toBe('$');
    }
    expectError(await rawJson('put', '/ucp/v1/admin/guards', '[]'), 400, 'invalid');
    const sessions = await t.get('/ucp/v1/orders?kind=purchase');
    expect(sessions.status).toBe(200);
  });

  it('POST /checkout-sessions without line_items is 400 missing at $.line_items (an empty list is allowed)', async () => {
    const res = await t.post('/ucp/v1/checkout-sessions', { id: 'EDGE-NOLINES', fulfillment: DEST });
    expectError(res, 400, 'missing');
    expect(pathOf(res)).toBe('$.line_items');
    expect((await t.get('/ucp/v1/checkout-sessions/EDGE-NOLINES')).status).toBe(404);
    const empty = await t.post('/ucp/v1/checkout-sessions', { id: 'EDGE-EMPTY', line_items: [], fulfillment: DEST });
    expect(empty.status).toBe(201);
    expect(empty.body.status).toBe('incomplete');
  });

  it('a request line past the HTTP parser limit (16 KB) is a 400 request_too_large envelope, not a bare 431', async () => {
    expectError(await t.get(`/ucp/v1/events?kind=${'x'.repeat(20_000)}`), 400, 'request_too_large');
  });

  it('a badly percent-encoded path segment is a 400 envelope', async () => {
    const res = await t.get('/ucp/v1/orders/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body.ucp.status).toBe('error');
  });
});
