/**
 * The issue 11 fuzz: the real app over HTTP, real HTTP partners (healthy), guard rules set; valid requests of every
 * operation mutated in one place; each answer checked: no 5xx, always the ucp envelope, never a stack trace, and
 * nothing spent or written at a partner without confirm. Deterministic for a seed (fast-check `sample`).
 */
import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { buildOpenApiDocument } from '../../src/openapi';
import { OpenApiValidator } from '../support/openapi-validator';
import { TestApp } from '../support/test-app';
import { readySession, seedMachine, supplierApp } from '../support/money-fixtures';
import { describeMutation, mutation, Mutation, pctEncode, placesOf, setAt, toJsonText } from './mutations';
import { FUZZ_GUARDS, Op, OPERATIONS, World } from './operations';

export interface Sent {
  op: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  bodyText?: string;
  body?: unknown;
  mutation: string;
}

export interface Finding {
  n: number;
  what: string;
  request: Sent;
  status: number;
  answer: string;
}

export async function startWorld(): Promise<World> {
  const supplier = await startFakePartner({ token: 'sup-token' });
  const machine = await startFakePartner({ token: 'mach-token' });
  machine.state.inventory['loc-1'] = [
    { vendorSku: 'A1', title: 'Cola', priceFen: 350, stock: 0, capacity: 12 },
    { vendorSku: 'B2', title: 'Tea', priceFen: 500, stock: 1, capacity: 12 },
    { vendorSku: 'C3', title: 'Nuts', priceFen: 1000, stock: 2, capacity: 12 },
  ];
  const at = Date.now() - 86_400_000;
  machine.state.ledger = [1, 2, 3].map((i) => ({
    orderNo: `FZ-SALE-${i}`, locationId: 'loc-1', totalFen: 350, createdAt: at + i * 1000, takenAt: at + i * 1000, updatedAt: at + i * 1000, state: 'settled',
    lines: [{ vendorSku: 'A1', title: 'Cola', quantity: 1, priceFen: 350, status: 'paid', costFen: 200 }],
  }));
  const t = await supplierApp(supplier, {
    SERVICE_HTTP_VENDORS: JSON.stringify([
      { namespace: 'acme-supply', baseUrl: supplier.url, token: 'sup-token', capabilities: ['catalog', 'orders'] },
      { namespace: 'acme-machine', baseUrl: machine.url, token: 'mach-token', capabilities: ['inventory', 'ledger', 'pricing', 'replenishment.recommend', 'replenishment.order'] },
    ]),
    SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine',
    SERVICE_ADMIN_CHATS: JSON.stringify([{ chat_id: 'ops', admins: ['boss'] }]),
    SERVICE_GUARDS: JSON.stringify(FUZZ_GUARDS),
    // The limiter runs (issue 26: every request is counted, in PostgreSQL) with a limit the fuzz never reaches.
    SERVICE_RATE_LIMIT: '1000000',
    LOG_LEVEL: 'warn',
  });
  await seedMachines(t);
  machine.state.inventory['loc-2'] = [{ vendorSku: 'D4', title: 'Juice', priceFen: 400, stock: 6, capacity: 12 }];
  const sync = await t.post('/ucp/v1/locations/sync', {});
  if (sync.status !== 200) throw new Error(`fuzz setup: sync ${sync.status} ${JSON.stringify(sync.body).slice(0, 300)}`);
  const sales = await t.get('/ucp/v1/orders?kind=sale&limit=1');
  const saleId = (sales.body.orders?.[0]?.id as string | undefined) ?? 'FZ-SALE-1';
  await readySession(t, 'FZ-PO-1');
  const done = await t.post('/ucp/v1/checkout-sessions/FZ-PO-1/complete', { confirm: true });
  if (done.status !== 200) throw new Error(`fuzz setup: complete ${done.status}`);
  const api = new OpenApiValidator(await buildOpenApiDocument(t.app));
  return { t, supplier, machine, seq: 0, saleId, purchaseId: 'FZ-PO-1', approvalPrice: 1000, api };
}

async function seedMachines(t: TestApp): Promise<void> {
  await seedMachine(t.databaseUrl!, 'loc-1', 'acme-machine', [{ sku: 'A1', price: 350 }, { sku: 'B2', price: 500 }, { sku: 'C3', price: 1000 }]);
  await seedMachine(t.databaseUrl!, 'loc-2', 'acme-machine', [{ sku: 'D4', price: 400 }]);
}

export async function stopWorld(w: World): Promise<void> {
  await w.t.close();
  await w.supplier.close();
  await w.machine.close();
}

/**
 * The seeded plan: which operation, mutated how. Each operation comes once first (with a sampled mutation), so a run
 * at least as long as the list exercises every route however many there are; the rest are drawn at random.
 */
export function plan(seed: number, runs: number): { op: Op; m: Mutation }[] {
  const arb = fc.record({ op: fc.constantFrom(...OPERATIONS), m: mutation });
  const drawn = fc.sample(arb, { seed, numRuns: runs });
  return drawn.map((d, i) => (i < OPERATIONS.length ? { op: OPERATIONS[i], m: d.m } : d));
}

async function build(w: World, op: Op, m: Mutation): Promise<Sent> {
  const params = op.prepare ? await op.prepare(w) : {};
  let segments = op.path.split('/').slice(1).map((s) => (s.startsWith(':') ? pctEncode(params[s.slice(1)] ?? '') : s));
  const query: [string, string][] = Object.entries(op.query ?? {}).map(([k, v]) => [k, encodeURIComponent(v)]);
  const headers: Record<string, string> = { authorization: `Bearer ${w.t.token}`, 'user-agent': 'vending-fuzz/1.0' };
  if (op.idempotencyKey) headers['idempotency-key'] = `fz-${w.seq}-${Math.random().toString(36).slice(2)}`;
  if (op.ucpAgent) headers['ucp-agent'] = 'profile="https://agent.example/profile.json"';
  if (op.mcp) headers.accept = 'application/json, text/event-stream';
  let body = op.body ? op.body(w, params) : undefined;
  if (op.mcp2026) {
    // The standard headers of 2026-07-28 repeat the unmutated body (a mutation may make them disagree: a refusal).
    const rpc = body as { method: string; params?: { name?: unknown } };
    Object.assign(headers, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': rpc.method }, typeof rpc.params?.name === 'string' ? { 'mcp-name': rpc.params.name } : {});
  }
  let bodyText: string | undefined;
  let contentType = 'application/json';
  switch (m.kind) {
    case 'body-set':
    case 'body-delete':
    case 'body-add': {
      const places = placesOf(body ?? {});
      const at = places[m.pick % places.length].path;
      if (m.kind === 'body-set') body = setAt(body ?? {}, at, m.value);
      else if (m.kind === 'body-delete') body = setAt(body ?? {}, at, undefined, true);
      else {
        const target = at.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], body ?? {});
        body = target && typeof target === 'object' && !Array.isArray(target) ? setAt(body ?? {}, [...at, m.key], m.value) : setAt(body ?? {}, at, m.value);
      }
      break;
    }
    case 'whole-body':
      bodyText = m.raw;
      contentType = m.contentType;
      body = undefined;
      break;
    case 'header':
      if (m.value === null) delete headers[m.name];
      else headers[m.name] = m.value;
      break;
    case 'path': {
      // Mostly an id segment (where a value reaches the service), sometimes any segment (routing).
      const ids = op.path.split('/').slice(1).flatMap((s, i) => (s.startsWith(':') ? [i] : []));
      const at = ids.length && m.pick % 4 !== 0 ? ids[m.pick % ids.length] : m.pick % segments.length;
      segments = segments.map((s, i) => (i === at ? m.segment : s));
      break;
    }
    case 'query': {
      const keys = [...query.map(([k]) => k), ...(op.extraQuery ?? []), 'limit'];
      const key = keys[m.pick % keys.length];
      const rest = query.filter(([k]) => k !== key);
      query.splice(0, query.length, ...rest, [key, m.value], ...(m.duplicate ? [[key, m.value] as [string, string]] : []));
      break;
    }
  }
  if (bodyText === undefined && body !== undefined) bodyText = toJsonText(body);
  if (bodyText !== undefined && !(m.kind === 'header' && m.name === 'content-type')) headers['content-type'] = contentType;
  // Framed like any client frames it (a GET body without a length would be read as the next request).
  if (bodyText !== undefined) headers['content-length'] = String(Buffer.byteLength(bodyText));
  const qs = query.length ? `?${query.map(([k, v]) => `${k}=${v}`).join('&')}` : '';
  return { op: op.name, method: op.method, path: `/${segments.join('/')}${qs}`, headers, bodyText, body: bodyText === undefined ? undefined : safeParse(bodyText), mutation: describeMutation(m) };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function send(url: string, s: Sent): Promise<{ status: number; text: string; type: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = httpRequest({ host: u.hostname, port: u.port, method: s.method, path: s.path, headers: s.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), type: String(res.headers['content-type'] ?? '') }));
    });
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    if (s.bodyText !== undefined) req.write(s.bodyText);
    req.end();
  });
}

const STACK = /\bat [^\n]*\.(ts|js):\d+|node_modules|\n\s+at /;

/** Partner writes so far: supplier orders, machine price writes and restock requests. */
function writes(w: World) {
  return {
    orders: w.supplier.requestsTo('POST /orders').length,
    prices: w.machine.requestsTo('POST /prices').length,
    restocks: w.machine.requestsTo('POST /restock').length,
  };
}

/** Runs one planned request and returns what is wrong with its answer (empty when nothing). */
export async function runOne(w: World, n: number, op: Op, m: Mutation): Promise<Finding[]> {
  let s: Sent;
  try {
    s = await build(w, op, m);
  } catch (e) {
    // The resources this request needs could not be made (an earlier request changed the world): counted, not sent.
    w.setupFailures = (w.setupFailures ?? 0) + 1;
    if ((w.setupFailures ?? 0) <= 3) process.stdout.write(`fuzz: #${n} ${op.name} not sent: ${(e as Error).message.slice(0, 200)}\n`);
    return [];
  }
  const before = writes(w);
  let answer: { status: number; text: string; type: string };
  try {
    answer = await send(w.t.url, s);
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_INVALID_CHAR' || (e as { code?: string }).code === 'ERR_UNESCAPED_CHARACTERS') return []; // the client refused to send it
    return [{ n, what: `no answer: ${(e as Error).message}`, request: s, status: 0, answer: '' }];
  }
  const after = writes(w);
  const found: string[] = [];
  if (answer.status >= 500) found.push(`HTTP ${answer.status}`);
  if (STACK.test(answer.text)) found.push('a stack trace in the answer');
  const json = safeParse(answer.text) as { ucp?: { version?: string; status?: string }; messages?: unknown[] } | undefined;
  const envelopeWanted = !(op.notEnvelope && answer.status < 400) && !op.mcp;
  if (op.mcp) found.push(...mcpProblems(answer.status, json));
  if (envelopeWanted) {
    const status = answer.status < 400 ? 'success' : 'error';
    if (!json || json.ucp?.version !== '2026-08-25' || json.ucp?.status !== status || !Array.isArray(json.messages)) found.push(`not the ucp envelope (${status})`);
  }
  // A refusal of a request that reached its route is a status and a code the operation documents (an unparsable
  // body or a mutated path is refused before routing, by rules every operation shares).
  const template = op.path.replace(/:(\w+)/g, '{$1}');
  if (w.api?.documents(op.method, template) && m.kind !== 'path' && m.kind !== 'whole-body' && answer.status >= 400 && answer.status < 500 && json) {
    found.push(...w.api.problems(op.method, template, { status: answer.status, body: json }));
  }
  const sent = s.body as { confirm?: unknown; approved?: unknown; params?: { arguments?: Record<string, { confirm?: unknown } | undefined> } } | undefined;
  const body = op.mcp ? (sent?.params?.arguments?.checkout ?? sent?.params?.arguments?.prices) : sent;
  const confirmed = body?.confirm === true;
  if (after.orders > before.orders && !((op.name === 'checkout.complete' || op.name === 'mcp.complete_checkout' || op.name === 'mcp2026.complete_checkout') && confirmed)) found.push('a supplier order without confirm');
  if (after.prices > before.prices && !(((op.name === 'prices.put' || op.name === 'mcp.update_prices' || op.name === 'mcp.update_prices_floor' || op.name === 'mcp2026.update_prices') && confirmed) || (op.name === 'approvals.resolve' && (body as { approved?: unknown })?.approved === true))) {
    found.push('a price write without confirm or approval');
  }
  if (after.restocks > before.restocks && op.name !== 'restock' && op.name !== 'replenishment.place') found.push('a restock request from another route');
  if (op.name.startsWith('admin.') && answer.status < 300) await restoreGuards(w);
  // A mutated DELETE may remove the fuzz's own machines: put them back (roster and synced slots).
  if (op.method === 'DELETE' && answer.status < 300) await seedMachines(w.t);
  return found.map((what) => ({ n, what, request: s, status: answer.status, answer: answer.text.slice(0, 400) }));
}

/**
 * An MCP answer is JSON-RPC (a result, or an error with a code), or the ucp envelope of a request refused before it
 * reached the endpoint (an unparsable body); a tool result carries the ucp JSON.
 */
function mcpProblems(status: number, json: unknown): string[] {
  const j = json as { jsonrpc?: string; result?: { structuredContent?: { ucp?: { version?: string } } }; error?: { code?: unknown }; ucp?: unknown } | undefined;
  if (status === 202 && !j) return [];
  if (!j) return ['an MCP answer that is not JSON'];
  if (j.ucp !== undefined) return status >= 400 ? [] : ['a ucp envelope where JSON-RPC was expected'];
  if (j.jsonrpc !== '2.0' || (j.result === undefined && typeof j.error?.code !== 'number')) return ['an MCP answer that is not JSON-RPC'];
  if (j.result?.structuredContent && j.result.structuredContent.ucp?.version !== '2026-08-25') return ['a tool result without the ucp JSON'];
  return [];
}

/** Guard rules stay set and the kill switch released, whatever a mutated admin request changed. */
async function restoreGuards(w: World): Promise<void> {
  await w.t.put('/ucp/v1/admin/guards', FUZZ_GUARDS);
  await w.t.put('/ucp/v1/admin/kill-switch', { engaged: false, reason: 'fuzz: restore' });
}

export async function runFuzz(w: World, seed: number, runs: number, progress?: (n: number) => void): Promise<{ findings: Finding[]; byOp: Record<string, number> }> {
  const findings: Finding[] = [];
  const byOp: Record<string, number> = {};
  let n = 0;
  for (const { op, m } of plan(seed, runs)) {
    n++;
    byOp[op.name] = (byOp[op.name] ?? 0) + 1;
    findings.push(...(await runOne(w, n, op, m)));
    if (progress && n % 500 === 0) progress(n);
  }
  return { findings, byOp };
}

/** Findings grouped by what went wrong and on which operation, with one example each. */
export function summarize(findings: Finding[]): string {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const k = `${f.what} — ${f.request.op}`;
    groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  return [...groups.entries()]
    .map(([k, fs]) => `${fs.length} × ${k}\n   e.g. #${fs[0].n} ${fs[0].request.method} ${fs[0].request.path.slice(0, 200)} [${fs[0].request.mutation}] → ${fs[0].status} ${fs[0].answer.slice(0, 600)}`)
    .join('\n');
}
