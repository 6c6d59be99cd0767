/**
 * A real HTTP partner for tests: serves the eight contract endpoints (docs/partner-contract.md) on 127.0.0.1, port 0.
 *
 *   const p = await startFakePartner({ token: 'secret' });     // options: token (default 'fake-token')
 *   p.url                                 // 'http://127.0.0.1:<port>' — use as the registration's baseUrl
 *   p.state.inventory['loc-1'] = [{ vendorSku: 'A1', title: 'Cola', priceFen: 350, stock: 4 }];
 *   p.state.ledger = [{ orderNo: 'O1', locationId: 'loc-1', totalFen: 350, createdAt: Date.now(), lines: [] }];
 *   p.state.catalog = [{ vendorSku: 'A1', title: 'Cola', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 9 }];
 *   p.state.fulfillmentMethods = ['shipping', 'pickup', 'restock'];   // POST /orders refuses other methods (400)
 *   p.state.sendHasMore = true;           // false: /ledger omits hasMore (clients must infer it from the page size)
 *   p.state.orders[ref] / p.state.restocks[ref]   // created by POST; edit `.status` to move them on
 *   p.fault('GET /ledger', { status: 500 })                  // fixed status; body defaults to {ok:false,reason}
 *   p.fault('GET /ledger', { status: 400, body: { ok: false, reason: 'bad window' } })
 *   p.fault('GET /catalog', { delayMs: 2000 })                // answer late (then normally, or with the other fault)
 *   p.fault('POST /restock', { holdMs: 2000 })                // take the request now, hold its answer (a crash window)
 *   p.fault('POST /orders', { destroy: true })                // close the socket without an answer
 *   p.fault('GET /inventory', { rawBody: '{"items":[{"priceFen":3.5' })   // send this text with status 200
 *   p.fault('*', { status: 503, times: 1 })                   // '*' = every route; `times` = only the next N calls
 *   p.clearFaults();
 *   p.requests            // every request: { method, path, route, query, headers, body, rawBody }
 *   p.requestsTo('POST /orders')
 *   await p.close();
 *
 * Routes are named 'GET /inventory', 'GET /ledger', 'POST /prices', 'POST /restock', 'GET /restock/:ref',
 * 'GET /catalog', 'POST /orders', 'GET /orders/:ref'. Inventory, ledger and catalog records are served exactly as
 * stored (floats and strings included), which is how tests feed non-conforming data. The bearer token is checked
 * after faults are applied (401 `{ok:false, reason}` when wrong). /ledger pages for real: `page` from 1, `size`,
 * inclusive `fromMs`/`toMs` on `updatedAt` when `by=updated`, else on `takenAt` (or `createdAt`), sorted by that time.
 * POST /orders and POST /restock are idempotent by `ref`: a repeat returns the first answer and creates nothing.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

export interface FakeFault {
  delayMs?: number;
  /** Handle the request at once (the partner takes it) but hold the answer this long; the answer is dropped if the
   * connection closed meanwhile. `destroy` with it: close the socket after the hold instead of answering. */
  holdMs?: number;
  status?: number;
  body?: unknown;
  rawBody?: string;
  destroy?: boolean;
  /** Apply to the next N matching calls only (default: until cleared). */
  times?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  route: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  rawBody: string;
}

type Json = Record<string, unknown>;

export interface FakeOrder {
  request: Json;
  answer: Json;
  status: Json;
}

export interface FakeRestock {
  request: Json;
  answer: Json;
  status: Json;
}

export interface FakePartnerState {
  inventory: Record<string, unknown[]>;
  ledger: unknown[];
  catalog: unknown[];
  orders: Record<string, FakeOrder>;
  restocks: Record<string, FakeRestock>;
  fulfillmentMethods: string[];
  sendHasMore: boolean;
}

export interface FakePartner {
  url: string;
  token: string;
  state: FakePartnerState;
  requests: RecordedRequest[];
  requestsTo(route: string): RecordedRequest[];
  fault(route: string, fault: FakeFault): void;
  clearFaults(): void;
  close(): Promise<void>;
}

const ROUTES: [string, RegExp][] = [
  ['GET /inventory', /^\/inventory$/],
  ['GET /ledger', /^\/ledger$/],
  ['POST /prices', /^\/prices$/],
  ['POST /restock', /^\/restock$/],
  ['GET /restock/:ref', /^\/restock\/([^/]+)$/],
  ['GET /catalog', /^\/catalog$/],
  ['POST /orders', /^\/orders$/],
  ['GET /orders/:ref', /^\/orders\/([^/]+)$/],
];

export async function startFakePartner(options: { token?: string } = {}): Promise<FakePartner> {
  const token = options.token ?? 'fake-token';
  const state: FakePartnerState = {
    inventory: {},
    ledger: [],
    catalog: [],
    orders: {},
    restocks: {},
    fulfillmentMethods: ['shipping', 'pickup', 'restock'],
    sendHasMore: true,
  };
  const requests: RecordedRequest[] = [];
  const faults = new Map<string, FakeFault>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let seq = 0;

  const takeFault = (route: string): FakeFault | undefined => {
    const key = faults.has(route) ? route : faults.has('*') ? '*' : null;
    if (!key) return undefined;
    const f = faults.get(key)!;
    if (f.times !== undefined) {
      if (f.times <= 1) faults.delete(key);
      else faults.set(key, { ...f, times: f.times - 1 });
    }
    return f;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const rawBody = await readBody(req);
    const u = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const match = ROUTES.map(([name, re]) => ({ name, m: name.startsWith(`${method} `) ? re.exec(u.pathname) : null })).find((r) => r.m);
    const route = match?.name ?? `${method} ${u.pathname}`;
    let body: unknown = undefined;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = rawBody;
    }
    requests.push({ method, path: u.pathname, route, query: Object.fromEntries(u.searchParams), headers: { ...req.headers }, body, rawBody });

    const fault = takeFault(route);
    if (fault?.delayMs) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          timers.delete(t);
          resolve();
        }, fault.delayMs);
        timers.add(t);
      });
      if (res.destroyed || req.socket.destroyed) return;
    }
    if (fault?.holdMs) {
      const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
      const destroy = fault.destroy === true;
      res.end = ((...a: unknown[]) => {
        const t = setTimeout(() => {
          timers.delete(t);
          if (destroy) req.socket.destroy();
          else if (!res.destroyed) end(...a);
        }, fault.holdMs);
        timers.add(t);
        return res;
      }) as typeof res.end;
    } else if (fault?.destroy) {
      req.socket.destroy();
      return;
    }
    if (fault?.rawBody !== undefined) return send(res, fault.status ?? 200, fault.rawBody);
    if (fault?.status !== undefined) {
      return send(res, fault.status, JSON.stringify(fault.body ?? { ok: false, reason: `injected HTTP ${fault.status}` }));
    }

    if (req.headers.authorization !== `Bearer ${token}`) return json(res, 401, { ok: false, reason: 'missing or wrong bearer token' });
    if (!match) return json(res, 404, { ok: false, reason: `no route ${method} ${u.pathname}` });
    const ref = match.m![1] === undefined ? '' : decodeURIComponent(match.m![1]);
    const q = u.searchParams;
    const b = (body && typeof body === 'object' ? body : {}) as Json;

    switch (match.name) {
      case 'GET /inventory': {
        const loc = q.get('locationId') ?? '';
        // Own keys only: a location registered as `__proto__` is unknown here too.
        if (!Object.prototype.hasOwnProperty.call(state.inventory, loc)) return json(res, 404, { ok: false, reason: `unknown locationId ${loc}` });
        return json(res, 200, { items: state.inventory[loc] });
      }
      case 'GET /ledger':
        return json(res, 200, ledgerPage(state, q));
      case 'POST /prices':
        return prices(state, b, res);
      case 'POST /restock': {
        if (typeof b.ref !== 'string' || !b.ref) return json(res, 400, { ok: false, reason: 'ref is missing' });
        const known = own(state.restocks, b.ref);
        if (known) return json(res, 200, known.answer);
        const lines = Array.isArray(b.lines) ? b.lines : [];
        if (!lines.length) return json(res, 400, { ok: false, reason: 'lines is empty' });
        const externalRef = b.binding === true ? `FR-${++seq}` : undefined;
        const answer: Json = { accepted: lines.length, ...(externalRef ? { externalRef } : {}) };
        state.restocks[b.ref] = {
          request: b,
          answer,
          status: { ref: b.ref, status: 'pending', delivered: [], completedAt: null, externalRef: externalRef ?? null },
        };
        return json(res, 200, answer);
      }
      case 'GET /restock/:ref': {
        const r = own(state.restocks, ref);
        return r ? json(res, 200, r.status) : json(res, 404, { ok: false, reason: `unknown restock ref ${ref}` });
      }
      case 'GET /catalog':
        return json(res, 200, { products: state.catalog });
      case 'POST /orders':
        return order(state, b, res, () => `FO-${++seq}`);
      case 'GET /orders/:ref': {
        const o = own(state.orders, ref);
        return o ? json(res, 200, o.status) : json(res, 404, { ok: false, reason: `unknown order ref ${ref}` });
      }
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) json(res, 500, { ok: false, reason: `fake partner error: ${String(e)}` });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    state,
    requests,
    requestsTo: (route) => requests.filter((r) => r.route === route),
    fault: (route, fault) => void faults.set(route, fault),
    clearFaults: () => faults.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, JSON.stringify(body));
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function ledgerPage(state: FakePartnerState, q: URLSearchParams): Json {
  const page = Math.max(1, Number(q.get('page') ?? 1) || 1);
  const size = Math.max(1, Number(q.get('size') ?? 100) || 100);
  const from = q.has('fromMs') ? Number(q.get('fromMs')) : -Infinity;
  const to = q.has('toMs') ? Number(q.get('toMs')) : Infinity;
  const byUpdated = q.get('by') === 'updated';
  const timeOf = (r: unknown): number | null => {
    const o = (r && typeof r === 'object' ? r : {}) as Json;
    return byUpdated ? (num(o.updatedAt) ?? num(o.createdAt)) : (num(o.takenAt) ?? num(o.createdAt));
  };
  // Records without a usable time are still served (a partner bug the client must catch), at the end of the list.
  const matching = state.ledger
    .map((r, i) => ({ r, i, t: timeOf(r) }))
    .filter(({ t }) => t === null || (t >= from && t <= to))
    .sort((a, b) => (a.t ?? Infinity) - (b.t ?? Infinity) || a.i - b.i);
  const start = (page - 1) * size;
  const records = matching.slice(start, start + size).map((m) => m.r);
  return state.sendHasMore ? { records, hasMore: start + size < matching.length } : { records };
}

function prices(state: FakePartnerState, b: Json, res: ServerResponse): void {
  const loc = typeof b.locationId === 'string' ? b.locationId : '';
  const items = state.inventory[loc] as Json[] | undefined;
  if (!items) return json(res, 400, { ok: false, reason: `unknown locationId ${loc}` });
  const list = Array.isArray(b.prices) ? (b.prices as Json[]) : [];
  const targets = list.map((p) => ({ p, item: items.find((i) => i.vendorSku === p.vendorSku) }));
  const missing = targets.find((t) => !t.item);
  if (missing) return json(res, 400, { ok: false, reason: `vendorSku ${String(missing.p.vendorSku)} is not sold at ${loc}` });
  const updated = targets.map(({ p, item }) => {
    const previousFen = item!.priceFen;
    item!.priceFen = p.priceFen;
    return { vendorSku: p.vendorSku, previousFen, priceFen: p.priceFen };
  });
  json(res, 200, { updated });
}

function order(state: FakePartnerState, b: Json, res: ServerResponse, nextId: () => string): void {
  if (typeof b.ref !== 'string' || !b.ref) return json(res, 400, { ok: false, reason: 'ref is missing' });
  const known = own(state.orders, b.ref);
  if (known) return json(res, 200, known.answer);
  const lines = Array.isArray(b.lines) ? (b.lines as Json[]) : [];
  if (!lines.length) return json(res, 400, { ok: false, reason: 'lines is empty' });
  const skus = new Set(state.catalog.map((p) => (p && typeof p === 'object' ? (p as Json).vendorSku : undefined)));
  const unknown = lines.find((l) => state.catalog.length > 0 && !skus.has(l.vendorSku));
  if (unknown) return json(res, 400, { ok: false, reason: `unknown vendorSku ${String(unknown.vendorSku)}` });
  const method = (b.fulfillment as Json | undefined)?.method;
  if (typeof method !== 'string' || !state.fulfillmentMethods.includes(method)) {
    return json(res, 400, { ok: false, reason: `fulfillment method ${String(method)} is not offered` });
  }
  const answer = { ref: b.ref, orderId: nextId(), state: 'ordered', rawStatus: 'CREATED' };
  state.orders[b.ref] = { request: b, answer, status: { ref: b.ref, state: 'ordered', rawStatus: 'CREATED', logistics: [] } };
  json(res, 200, answer);
}

/** A stored order by ref, own keys only: a ref such as `constructor` or `__proto__` is unknown, not Object's. */
function own<T>(store: Record<string, T>, ref: unknown): T | undefined {
  return typeof ref === 'string' && Object.prototype.hasOwnProperty.call(store, ref) ? store[ref] : undefined;
}
