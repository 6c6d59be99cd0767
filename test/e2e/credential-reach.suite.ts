/**
 * Issue 37 item 5: each credential reaches exactly what the README's Configure table says, on every route the
 * production service mounts and every MCP tool. The routes are read from the running application's router (so a new
 * route is walked without editing this file) and must each be an OpenAPI operation or one of the few documented
 * routes outside the document; the tools come from tools/list. Routes that exist only in staging are not mounted in
 * production at all. In two parts, each run by a file per database (a file each stays under 20 s): the routes
 * (credentialReachRoutes: credential-reach-routes[-embedded].e2e-spec.ts) and the MCP tools (credentialReachTools:
 * credential-reach-tools[-embedded].e2e-spec.ts).
 */
import request from 'supertest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP_TOOLS } from '../../src/mcp/tools/mcp-tools.table';
import { mcpClient } from '../support/mcp-client';
import { startTestApp, TestApp, TEST_TOKEN } from '../support/test-app';

const APPROVER = 'test-approver-token-0a9b8c7d';
const CHAT = 'test-chat-token-1a2b3c4d5e6f';
const METRICS = 'test-metrics-token-9f8e7d6c';
const CREDENTIALS = { operator: TEST_TOKEN, approver: APPROVER, chat: CHAT, metrics: METRICS, none: null } as const;
type Cred = keyof typeof CREDENTIALS;

/** What the README says, in operations: no token opens discovery, health and the console's sign-in and sign-out. */
const PUBLIC = new Set(['discovery_profile', 'health_live', 'health_ready', 'auth_session_create', 'auth_session_delete']);
/** A chat bot's credential: list, read and resolve approvals (REST or MCP), nothing else. */
const CHAT_OPERATIONS = new Set(['approvals_list', 'approvals_get', 'approvals_resolve']);
/** With SERVICE_APPROVER_TOKEN set, the operator may not replace guard rules or release the kill switch (a body it cannot prove otherwise is taken as a release). */
const APPROVER_ONLY = new Set(['admin_guards_put', 'admin_kill_switch_put']);

type Access = 'anyone' | 'chat' | 'token' | 'metrics';
/** The routes outside the OpenAPI document, each with who may reach it (README: OpenAPI, AsyncAPI, MCP, Metrics). */
const OUTSIDE_THE_DOCUMENT: Record<string, Access> = {
  'GET /ucp/v1/openapi.json': 'token',
  'GET /ucp/v1/events/asyncapi.json': 'token',
  'GET /.well-known/ucp/schemas/:file': 'anyone',
  'GET /metrics': 'metrics',
  'POST /ucp/mcp': 'chat', // its tool calls are judged route by route, below
  'GET /ucp/mcp': 'token',
  'DELETE /ucp/mcp': 'token',
  'GET /ucp/mcp/openrpc.json': 'token',
  // The OAuth metadata an assistant reads before it has a token (issue 36); the authorization server's own routes
  // under /oauth belong to oidc-provider and are covered by the oauth e2e specs.
  'GET /.well-known/oauth-protected-resource': 'anyone',
  'GET /.well-known/oauth-protected-resource/ucp/mcp': 'anyone',
  'GET /.well-known/oauth-authorization-server/oauth': 'anyone',
};

type Outcome = 'reached' | 'unauthenticated' | 'out_of_scope' | 'approver_only';

function expected(access: Access, cred: Cred, approverOnly: boolean): Outcome {
  if (access === 'anyone') return 'reached';
  if (access === 'metrics') return cred === 'metrics' ? 'reached' : 'unauthenticated';
  if (cred === 'none' || cred === 'metrics') return 'unauthenticated';
  if (cred === 'chat') return access === 'chat' ? 'reached' : 'out_of_scope';
  if (cred === 'operator' && approverOnly) return 'approver_only';
  return 'reached';
}

function outcomeOf(status: number, body: unknown): Outcome {
  const text = JSON.stringify(body ?? null); // an envelope, or the MCP endpoint's JSON-RPC error carrying one
  if (status === 401) return 'unauthenticated';
  if (status === 403 && text.includes('a chat credential may only read and resolve approvals')) return 'out_of_scope';
  if (status === 403 && text.includes('needs the approver credential')) return 'approver_only';
  return 'reached';
}

interface Route {
  key: string;
  method: string;
  path: string;
  operationId: string | null;
}

/** Every route the application mounts (Express's router), keyed `METHOD /path/:param`. */
export function mountedRoutes(t: TestApp): { method: string; path: string }[] {
  const express = t.app.getHttpAdapter().getInstance() as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } };
  return express.router.stack.flatMap((l) => (l.route ? Object.keys(l.route.methods).filter((m) => m !== '_all').map((m) => ({ method: m.toUpperCase(), path: l.route!.path })) : []));
}

/** A body every write accepts far enough to be judged: it names the chat channel (the approver rule of resolve). */
const WALK_BODY = { resolver: { channel: 'chat_tool' } };

function send(t: TestApp, r: Route, cred: Cred): request.Test {
  const path = r.path.replace(/:[A-Za-z_]+/g, (p) => (p === ':file' ? 'com.example.svc.approval.json' : 'walk-1'));
  const agent = request(t.app.getHttpServer());
  let req = (agent as unknown as Record<string, (p: string) => request.Test>)[r.method.toLowerCase()](path);
  const token = CREDENTIALS[cred];
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  if (r.key === 'POST /ucp/mcp') req = req.set('Accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  else if (['POST', 'PUT', 'PATCH'].includes(r.method)) req = req.send(WALK_BODY);
  return req;
}

/**
 * The production app of one part of the walk on one database, its routes read from its router and keyed by OpenAPI
 * operation; `tests` get them once they are up.
 */
function onProductionApp(db: 'postgres' | 'embedded', part: string, tests: (app: () => { t: TestApp; routes: Route[] }) => void): void {
  describe(`each credential reaches what the README says, ${part} (production, ${db})`, () => {
    let t: TestApp;
    let routes: Route[];
    beforeAll(async () => {
      t = await startTestApp({
        db,
        env: {
          SERVICE_ENV: 'production',
          SERVICE_APPROVER_TOKEN: APPROVER,
          SERVICE_ADMIN_CHATS: JSON.stringify([{ chat_id: 'chat-1', admins: ['owner-1'] }]),
          SERVICE_CHAT_TOKENS: JSON.stringify({ 'chat-1': CHAT }),
          SERVICE_METRICS_TOKEN: METRICS,
        },
      });
      const doc = (await t.get('/ucp/v1/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { operationId: string }>> };
      const ids = new Map<string, string>();
      for (const [p, item] of Object.entries(doc.paths)) for (const [m, op] of Object.entries(item)) ids.set(`${m.toUpperCase()} ${p.replace(/\{([^}]+)\}/g, ':$1')}`, op.operationId);
      routes = mountedRoutes(t).map(({ method, path }) => ({ key: `${method} ${path}`, method, path, operationId: ids.get(`${method} ${path}`) ?? null }));
    });
    afterAll(() => t?.close());
    tests(() => ({ t, routes }));
  });
}

/**
 * The walk over every route on one database: credential-reach-routes.e2e-spec.ts runs it on PostgreSQL,
 * credential-reach-routes-embedded.e2e-spec.ts on the embedded one (a file each, so each stays under 20 s).
 */
export function credentialReachRoutes(db: 'postgres' | 'embedded'): void {
  onProductionApp(db, 'every route', (app) => {
    it('every mounted route is an OpenAPI operation or a documented route outside it; the staging clock is not mounted', () => {
      const { routes } = app();
      const unknown = routes.filter((r) => r.operationId === null && !(r.key in OUTSIDE_THE_DOCUMENT)).map((r) => r.key);
      expect(unknown).toEqual([]);
      expect(routes.filter((r) => r.path.startsWith('/ucp/v1/admin/clock'))).toEqual([]);
      expect(routes.filter((r) => r.operationId !== null).length).toBeGreaterThan(50);
      for (const key of Object.keys(OUTSIDE_THE_DOCUMENT)) expect(routes.map((r) => r.key)).toContain(key);
    });

    it.each(Object.keys(CREDENTIALS) as Cred[])('REST: the %s credential reaches exactly its routes', async (cred) => {
      const { t, routes } = app();
      const wrong: string[] = [];
      for (const r of routes) {
        const access: Access = r.operationId === null ? OUTSIDE_THE_DOCUMENT[r.key] : PUBLIC.has(r.operationId) ? 'anyone' : CHAT_OPERATIONS.has(r.operationId) ? 'chat' : 'token';
        const want = expected(access, cred, r.operationId !== null && APPROVER_ONLY.has(r.operationId));
        const res = await send(t, r, cred);
        const got = outcomeOf(res.status, res.body);
        if (got !== want) wrong.push(`${r.key}: ${got} (${res.status}), README says ${want}`);
      }
      expect(wrong).toEqual([]);
    });

    it('the OpenAPI document says the same: public operations need no token, the chat scheme opens exactly the approvals it may use', async () => {
      const { t } = app();
      const doc = (await t.get('/ucp/v1/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { operationId: string; security?: Record<string, unknown>[] }>> };
      const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
      expect(ops.filter((o) => o.security?.length === 0).map((o) => o.operationId).sort()).toEqual([...PUBLIC].sort());
      expect(ops.filter((o) => o.security?.some((s) => 'chat' in s)).map((o) => o.operationId).sort()).toEqual([...CHAT_OPERATIONS].sort());
    });

    it('the staging clock answers 404 in production, before looking at a body', async () => {
      const { t } = app();
      for (const cred of ['operator', 'approver'] as const) {
        const auth = { Authorization: `Bearer ${CREDENTIALS[cred]}` };
        expect((await t.raw.get('/ucp/v1/admin/clock').set(auth)).status).toBe(404);
        expect((await t.raw.post('/ucp/v1/admin/clock/advance').set(auth).send({ seconds: 'not a number' })).status).toBe(404);
        expect((await t.raw.post('/ucp/v1/admin/clock/advance').set(auth).send({ seconds: 60 })).status).toBe(404);
      }
    });
  });
}

/**
 * The walk over every MCP tool on one database: credential-reach-tools.e2e-spec.ts runs it on PostgreSQL,
 * credential-reach-tools-embedded.e2e-spec.ts on the embedded one (a file each, so each stays under 20 s).
 */
export function credentialReachTools(db: 'postgres' | 'embedded'): void {
  onProductionApp(db, 'every tool', (app) => {
    describe('MCP', () => {
      const clients: Partial<Record<Cred, Client>> = {};
      beforeAll(async () => {
        for (const cred of ['operator', 'approver', 'chat'] as const) clients[cred] = await mcpClient(app().t, { Authorization: `Bearer ${CREDENTIALS[cred]}` });
      });
      afterAll(async () => {
        for (const c of Object.values(clients)) await c?.close();
      });

      it('tools/list: the operator and the approver see every tool, a chat credential only the tools it may call', async () => {
        const names = async (cred: Cred) => (await clients[cred]!.listTools()).tools.map((x) => x.name).sort();
        const all = MCP_TOOLS.map((s) => s.tool).sort();
        expect(await names('operator')).toEqual(all);
        expect(await names('approver')).toEqual(all);
        const chatSees = MCP_TOOLS.filter((s) => CHAT_OPERATIONS.has(s.operationId) || PUBLIC.has(s.operationId)).map((s) => s.tool).sort();
        expect(await names('chat')).toEqual(chatSees);
        expect(chatSees.length).toBeLessThan(all.length / 4);
      });

      it('without a token, or with the metrics token, the MCP endpoint is 401', async () => {
        const { t } = app();
        for (const cred of ['none', 'metrics'] as const) {
          await expect(mcpClient(t, CREDENTIALS[cred] ? { Authorization: `Bearer ${CREDENTIALS[cred]}` } : {})).rejects.toThrow(/401|nauthorized/);
        }
      });

      it.each(['operator', 'approver', 'chat'] as const)('tools/call: the %s credential reaches exactly the operations of its routes', async (cred) => {
        const tools = (await clients.operator!.listTools()).tools;
        const wrong: string[] = [];
        for (const tool of tools) {
          const spec = MCP_TOOLS.find((s) => s.tool === tool.name)!;
          const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
          const args: Record<string, unknown> = {};
          for (const name of schema.required ?? []) if (name !== 'meta' && name !== spec.payload) args[name] = 'walk-1';
          if (spec.payload) args[spec.payload] = WALK_BODY;
          if (spec.movesMoney) args.meta = { 'idempotency-key': `walk-${cred}-${tool.name}` };
          const r = (await clients[cred]!.callTool({ name: tool.name, arguments: args })) as CallToolResult;
          const status = r._meta?.['com.example.svc/http_status'] as number;
          const access: Access = PUBLIC.has(spec.operationId) ? 'anyone' : CHAT_OPERATIONS.has(spec.operationId) ? 'chat' : 'token';
          const want = expected(access, cred, APPROVER_ONLY.has(spec.operationId));
          const got = outcomeOf(status, r.structuredContent);
          if (got !== want) wrong.push(`${tool.name}: ${got} (${status}), README says ${want}`);
        }
        expect(wrong).toEqual([]);
      });
    });
  });
}
