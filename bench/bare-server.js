#!/usr/bin/env node
// The bare stack for issue 13: node:http + pg over the service's database, answering the two hot read routes with
// the same page queries and the same JSON bytes as the service (read-compare.js checks byte equality), and nothing
// else: no framework, no validation beyond what the queries need, no logging. It is the yardstick, not a product.
//   GET /ucp/v1/orders?kind=sale&limit=N[&location=ID][&cursor=C]   (sales, newest first, keyset cursor)
//   GET /ucp/v1/events?limit=N
// Env: DATABASE_URL, PORT, BENCH_TOKEN, PUBLIC_URL (the service's SERVICE_PUBLIC_URL), LEDGER_JOB, POOL_MAX.
// Timestamps come from the driver as text and are formatted once at +08:00 (no Date objects per row).
const http = require('node:http');
const { Pool, types } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_MAX ?? 10) });
pool.on('error', () => undefined);
const TOKEN = `Bearer ${process.env.BENCH_TOKEN ?? 'bench-token'}`;
const BASE = process.env.PUBLIC_URL ?? 'http://bench.invalid';
const LEDGER_JOB = process.env.LEDGER_JOB ?? 'ledger:sim-machine';
const VERSION = '2026-08-25';

const text = (v) => v;
const TYPES = { getTypeParser: (oid, format) => (oid === 1184 || oid === 1114 ? text : types.getTypeParser(oid, format)) };

// "2026-11-22 02:00:00.123456+00" -> "2026-11-22T10:00:00.123+08:00"; hour prefixes are cached.
const hourCache = new Map();
function plus8(t) {
  const off = t.length > 19 ? t.search(/[+-]\d\d(:\d\d)?$/) : -1;
  const zone = off < 0 ? '+00' : t.slice(off);
  const frac = off > 19 ? t.slice(20, off) : t.length > 20 && off < 0 ? t.slice(20) : '';
  const key = t.slice(0, 13) + zone;
  let prefix = hourCache.get(key);
  if (prefix === undefined) {
    const ms = Date.parse(`${t.slice(0, 10)}T${t.slice(11, 13)}:00:00${zone.length === 3 ? zone + ':00' : zone}`);
    prefix = new Date(ms + 8 * 3600_000).toISOString().slice(0, 13);
    if (hourCache.size > 10_000) hourCache.clear();
    hourCache.set(key, prefix);
  }
  return `${prefix}${t.slice(13, 19)}.${(frac + '000').slice(0, 3)}+08:00`;
}

const LINE_MAP = {
  paid: ['fulfilled', null],
  unpaid: ['processing', null],
  refunded: ['removed', 'refund'],
  refund_failed: ['fulfilled', 'refund_failed'],
  cancelled: ['removed', 'cancellation'],
};

function orderView(r) {
  const adjustments = [];
  const occurredAt = r.updated_at === null ? null : plus8(r.updated_at);
  const lines = r.lines ?? [];
  let subtotal = 0;
  const items = lines.map((l) => {
    const id = String(l.line_no);
    const [status, adj] = LINE_MAP[l.status] ?? ['processing', null];
    const price = Number(l.price_fen);
    const amount = price * l.quantity;
    subtotal += amount;
    if (adj === 'refund') {
      adjustments.push({ id: `${r.id}-refund-${id}`, type: 'refund', occurred_at: occurredAt, status: 'completed', line_items: [{ id, quantity: l.quantity }], totals: [{ type: 'total', amount: -amount }], description: `line ${id} refunded` });
    } else if (adj === 'refund_failed') {
      adjustments.push({ id: `${r.id}-refund_failed-${id}`, type: 'refund_failed', occurred_at: occurredAt, status: 'failed', line_items: [{ id, quantity: l.quantity }], description: `refund of line ${id} failed; the sale stands` });
    } else if (adj === 'cancellation') {
      adjustments.push({ id: `${r.id}-cancellation-${id}`, type: 'cancellation', occurred_at: occurredAt, status: 'completed', line_items: [{ id, quantity: l.quantity }], description: `line ${id} cancelled` });
    }
    return {
      id,
      item: { id: l.sku_id, title: l.title ?? l.vendor_sku, price: { amount: price, currency: 'CNY' }, quantity_unit: 'EA' },
      quantity: { original: l.quantity, total: status === 'removed' ? 0 : l.quantity, fulfilled: status === 'fulfilled' ? l.quantity : 0 },
      totals: [{ type: 'subtotal', amount }, { type: 'total', amount }],
      status,
    };
  });
  const total = Number(r.total_fen);
  if (lines.length === 0) subtotal = total;
  const totals = [{ type: 'subtotal', amount: subtotal }];
  if (total < subtotal) totals.push({ type: 'discount', amount: total - subtotal });
  if (total > subtotal) totals.push({ type: 'fee', amount: total - subtotal });
  totals.push({ type: 'total', amount: total });
  const v = {
    id: r.id, kind: 'sale', checkout_id: null, permalink_url: `${BASE}/ucp/v1/orders/${encodeURIComponent(r.id)}`, currency: 'CNY',
    location: r.location_id, location_name: r.location_name, trade_status_raw: r.trade_status_raw, taken_at: plus8(r.taken_at),
    line_items: items, fulfillment: { expectations: [], events: [] }, adjustments, totals,
  };
  if (r.trade_status !== null) v.trade_status = r.trade_status;
  if (r.trade_status_label !== null) v.trade_status_label = r.trade_status_label;
  if (r.finalized !== null) v.finalized = r.finalized;
  if (r.settled_at !== null) v.settled_at = plus8(r.settled_at);
  if (r.updated_at !== null) v.updated_at = plus8(r.updated_at);
  return v;
}

// The service's page query for sales newest first (SalesRepository.pageQuery), settled by default.
function pageSql(location, after) {
  const params = [];
  const where = [];
  if (location !== null) where.push(`location_id = $${params.push(location)}`);
  where.push(`trade_status = $${params.push('settled')}`);
  if (after) where.push(`(taken_at, id) < ($${params.push(after[1])}::timestamptz, $${params.push(after[2])})`);
  const inner = `SELECT id, namespace, location_id, total_fen, taken_at, settled_at, updated_at, finalized, trade_status, trade_status_raw,
              trade_status_label, data_warnings,
              to_char(taken_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key
       FROM sale_orders WHERE ${where.join(' AND ')} ORDER BY taken_at DESC, id DESC LIMIT $${params.push(101)}`;
  const sql = `WITH p AS MATERIALIZED (${inner})
      SELECT p.*, loc.name AS location_name,
             (SELECT json_agg(json_build_object('line_no', l.line_no, 'vendor_sku', l.vendor_sku, 'sku_id', l.sku_id, 'title', l.title,
                                                'quantity', l.quantity, 'price_fen', l.price_fen, 'status', l.status) ORDER BY l.line_no)
              FROM sale_lines l WHERE l.order_id = p.id) AS lines
      FROM p LEFT JOIN locations loc ON loc.id = p.location_id
      ORDER BY p.taken_at DESC, p.id DESC`;
  return { text: sql, values: params, types: TYPES };
}

function warning(code, content, path) {
  return { type: 'warning', code, severity: 'warning', path, content, content_type: 'plain' };
}

async function staleWhy() {
  const { rows } = await pool.query({ text: 'SELECT last_success_at, last_failure_at FROM sync_state WHERE job = $1', values: [LEDGER_JOB] });
  const s = rows[0];
  if (!s || !s.last_success_at) return 'the sales ledger has not been synced yet';
  const ok = s.last_success_at.getTime();
  if (s.last_failure_at && s.last_failure_at.getTime() >= ok) return `the last ledger sync failed (at ${s.last_failure_at.toISOString()})`;
  const age = Date.now() - ok;
  return age > 15 * 60_000 ? `the last successful ledger sync is ${Math.round(age / 60_000)} minutes old` : null;
}

async function orders(params) {
  const cursor = params.get('cursor');
  let after = null;
  if (cursor !== null) {
    after = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(after) || after[0] !== 'taken') return null;
  }
  const [{ rows }, why] = await Promise.all([pool.query(pageSql(params.get('location'), after)), staleWhy()]);
  const page = rows.length > 100 ? rows.slice(0, 100) : rows;
  const messages = [];
  if (why) messages.push(warning('stale_data', `sales are read from the synced ledger copy, which may be behind: ${why}`, '$.orders'));
  const out = page.map((r, i) => {
    for (const w of r.data_warnings ?? []) messages.push(warning(w.code, w.content, `$.orders[${i}]${w.path.slice(1)}`));
    return orderView(r);
  });
  const last = page[page.length - 1];
  return {
    ucp: { version: VERSION, status: 'success', capabilities: { 'com.example.svc.order': [{ version: '2026-09-10' }] } },
    orders: out,
    pagination: rows.length > 100 ? { has_next_page: true, cursor: Buffer.from(JSON.stringify(['taken', last.sort_key, last.id])).toString('base64url') } : { has_next_page: false },
    messages,
  };
}

async function events(params) {
  const limit = Number(params.get('limit') ?? 50);
  const { rows } = await pool.query({
    text: 'SELECT id, occurred_at, kind, source, summary, reasoning, location, data FROM events ORDER BY seq DESC LIMIT $1',
    values: [limit],
    types: TYPES,
  });
  return {
    ucp: { version: VERSION, status: 'success', capabilities: { 'com.example.svc.events': [{ version: '2026-09-10' }] } },
    events: rows.map((e) => {
      const v = { id: e.id, occurred_at: plus8(e.occurred_at), kind: e.kind, source: e.source, summary: e.summary, reasoning: e.reasoning };
      if (e.location) v.location = e.location;
      if (e.data) v.data = e.data;
      return v;
    }),
    messages: [],
  };
}

function send(res, status, body) {
  const buf = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': buf.length });
  res.end(buf);
}

const server = http.createServer((req, res) => {
  if (req.headers.authorization !== TOKEN) return send(res, 401, { error: 'unauthorized' });
  const q = req.url.indexOf('?');
  const path = q < 0 ? req.url : req.url.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1));
  const handler = path === '/ucp/v1/orders' ? orders : path === '/ucp/v1/events' ? events : null;
  if (!handler) return send(res, 404, { error: 'not found' });
  handler(params).then(
    (body) => (body ? send(res, 200, body) : send(res, 400, { error: 'bad request' })),
    (e) => send(res, 500, { error: String(e && e.message) }),
  );
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 19500), '127.0.0.1', () => console.log(`bare server on ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
