import * as fs from 'node:fs';
import * as path from 'node:path';
import { expectError } from '../support/envelope';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

interface Operation {
  method: string;
  path: string;
  query: string[];
}

/** Every operation of the committed OpenAPI document, with its query parameters. */
function operations(): Operation[] {
  const doc = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
  };
  return Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method,
      path: p.replace(/\{[^}]+\}/g, 'x-1'),
      query: (op.parameters ?? []).filter((q) => q.in === 'query').map((q) => q.name),
    })),
  );
}

/**
 * Issue 17: a query key the route does not take, or several values where it takes one, is 400 `invalid` naming the
 * key, on every route; never ignored (`?location[]=x` used to drop the filter and list every order).
 */
describe.each(BOTH_DATABASES)('query keys (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
  });
  afterAll(() => t.close());

  const send = (method: string, url: string) => {
    const req = t.raw[method as 'get'](url).set('Authorization', `Bearer ${t.token}`);
    return method === 'get' || method === 'delete' ? req : req.send({});
  };

  it('GET /orders refuses location[]=x, a repeated location and an unknown key; takes location once', async () => {
    const bracket = await t.get('/ucp/v1/orders?location[]=m-1');
    expectError(bracket, 400, 'invalid');
    expect(bracket.body.messages[0].path).toBe('$["location[]"]');
    expect(bracket.body.messages[0].content).toMatch(/give location once/);
    const twice = await t.get('/ucp/v1/orders?location=a&location=b');
    expectError(twice, 400, 'invalid');
    expect(twice.body.messages[0].path).toBe('$.location');
    const unknown = await t.get('/ucp/v1/orders?locaton=m-1');
    expectError(unknown, 400, 'invalid');
    expect(unknown.body.messages[0].path).toBe('$.locaton');
    await t.get('/ucp/v1/orders?location=m-1&limit=5').expect(200);
  });

  it('every route refuses an unknown query key, and each of its query parameters given twice', async () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    for (const op of ops) {
      const unknown = await send(op.method, `${op.path}?not_a_param=1`);
      if (unknown.status !== 400 || unknown.body.messages?.[0]?.path !== '$.not_a_param') wrong.push(`${op.method} ${op.path}?not_a_param: ${unknown.status}`);
      for (const q of op.query) {
        const twice = await send(op.method, `${op.path}?${q}=a&${q}=b`);
        if (twice.status !== 400 || twice.body.messages?.[0]?.path !== `$.${q}`) wrong.push(`${op.method} ${op.path}?${q} twice: ${twice.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses before anything else runs, and still answers 401 first without a token', async () => {
    expectError(await t.raw.get('/ucp/v1/orders?bogus=1'), 401, 'unauthorized');
    const res = await t.post('/ucp/v1/locations/sync?dry_run=1', {});
    expectError(res, 400, 'invalid');
    expect(res.body.messages[0].content).toMatch(/takes no query parameters/);
  });
});
