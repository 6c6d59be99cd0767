import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MCP_TOOLS } from '../../src/mcp/tools/mcp-tools.table';
import { expectError } from '../support/envelope';
import { callTool, codesOf, mcpClient } from '../support/mcp-client';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(180_000);

interface Operation {
  method: string;
  path: string;
}

/** Every operation of the committed OpenAPI document that takes no request body. */
function bodilessOperations(): Operation[] {
  const doc = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, { requestBody?: unknown }>>;
  };
  return Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op.requestBody === undefined)
      .map(([method]) => ({ method, path: p.replace(/\{[^}]+\}/g, 'x-1') })),
  );
}

/**
 * Issue 25: a route whose contract takes no body answers a body with any key with 400 `invalid` naming the key, on
 * every such route, before anything runs (`POST /replenishment/runs` with `{"location":"L2"}` used to order for the
 * whole fleet). MCP refuses a tool argument it does not take the same way.
 */
describe.each(BOTH_DATABASES)('request bodies on routes that take none (%s)', (db) => {
  let t: TestApp;
  let mcp: Client;
  beforeAll(async () => {
    t = await startTestApp({ db });
    mcp = await mcpClient(t);
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  const runCount = async () => (await t.get('/ucp/v1/replenishment/runs').expect(200)).body.runs.length as number;

  it('POST /replenishment/runs with {"location":"L2"} is 400 naming $.location, and builds no run', async () => {
    const before = await runCount();
    const res = await t.post('/ucp/v1/replenishment/runs', { location: 'L2' });
    expectError(res, 400, 'invalid');
    expect(res.body.messages[0].path).toBe('$.location');
    expect(res.body.messages[0].content).toMatch(/takes no request body/);
    expectError(await t.post('/ucp/v1/replenishment/runs', [{ location: 'L2' }]), 400, 'invalid');
    expect(await runCount()).toBe(before);
    // No body, or one that says nothing, is the route's one reading: the fleet's runs.
    const empty = await t.post('/ucp/v1/replenishment/runs', {});
    expect(empty.status).toBe(201);
    expect(await runCount()).toBeGreaterThan(before);
  });

  it('every operation without a request body refuses a body with a key, naming it', async () => {
    const ops = bodilessOperations();
    expect(ops.length).toBeGreaterThan(15);
    const wrong: string[] = [];
    for (const op of ops) {
      const res = await t.raw[op.method as 'post'](op.path).set('Authorization', `Bearer ${t.token}`).send({ not_a_field: 1 });
      if (res.status !== 400 || res.body.messages?.[0]?.code !== 'invalid' || res.body.messages?.[0]?.path !== '$.not_a_field') wrong.push(`${op.method} ${op.path}: ${res.status} ${JSON.stringify(res.body.messages?.[0])}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers 401 first without a token, and leaves routes that take a body to their own validation', async () => {
    expectError(await t.raw.post('/ucp/v1/replenishment/runs').send({ location: 'L2' }), 401, 'unauthorized');
    const events = await t.post('/ucp/v1/events', { kind: 'note' });
    expect(events.body.messages?.[0]?.content ?? '').not.toMatch(/takes no request body/);
  });

  it('MCP: every tool refuses an argument it does not take, as invalid naming it', async () => {
    // create_run takes `location` as its query parameter; a guessed payload is refused, never ignored.
    const create = await callTool(mcp, 'create_run', { run: { location: 'L2' } });
    expect(create).toMatchObject({ isError: true, status: 400 });
    expect(create.body.messages[0]).toMatchObject({ code: 'invalid', path: '$.run' });
    const wrong: string[] = [];
    for (const { tool } of MCP_TOOLS) {
      const a = await callTool(mcp, tool, { not_an_argument: 1 });
      if (!a.isError || a.status !== 400 || !codesOf(a).includes('invalid') || !a.body.messages.some((m) => m.path === '$.not_an_argument')) wrong.push(`${tool}: ${a.status} ${a.text.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });
});
