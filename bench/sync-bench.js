#!/usr/bin/env node
// Machine sync bench (issue 3), against a partner served by this script on loopback (node:http, the contract's
// machine role). Creates and drops its own database.
//  1. Ledger ingestion: 100,000 new ledger records (1,000 machines, 1-2 lines each) pulled by POST /locations/sync
//     in pages of 100 and upserted in batches: records per second.
//  2. Full sync of 1,000 registered machines (60 products each) against the partner answering every call in 100 ms:
//     the scheduled jobs as the scheduler runs them (hourly inventory of every machine, the 5-minute ledger read over
//     the last 3 hours holding 6,000 records), then POST /locations/sync (every machine and the ledger) end to end.
// Usage: npm run build && node bench/sync-bench.js [--records 100000] [--machines 1000] [--delay 100]
//   BENCH_DIST=/path/to/compiled/output points at another build than ./dist (then also NODE_PATH=./node_modules).
const { spawn } = require('node:child_process');
const http = require('node:http');
const path = require('node:path');
const { Client } = require('pg');
const { sql } = require('./data/sql');

const arg = (name, def) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : def);
const RECORDS = Number(arg('records', '100000'));
const MACHINES = Number(arg('machines', '1000'));
const DELAY = Number(arg('delay', '100'));
const dist = path.resolve(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'));
const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const token = 'bench-token-0123456789'; // production refuses tokens under 16 characters
const partnerToken = 'bench-partner-token';
const NS = 'bench-machine';

const admin = (text) => sql(adminUrl, text);

const loc = (i) => `bm-${String(i).padStart(4, '0')}`;

/** The partner: ledger records by update time (inclusive window, paged), inventory of 60 products per machine. */
function startPartner() {
  const state = { ledger: [], delayMs: 0, calls: 0, inFlight: 0, peak: 0 };
  const server = http.createServer((req, res) => {
    state.calls++;
    state.inFlight++;
    state.peak = Math.max(state.peak, state.inFlight);
    const answer = (status, body) => {
      const text = JSON.stringify(body);
      const send = () => {
        state.inFlight--;
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      };
      if (state.delayMs) setTimeout(send, state.delayMs);
      else send();
    };
    if (req.headers.authorization !== `Bearer ${partnerToken}`) return answer(401, { ok: false, reason: 'bad token' });
    const u = new URL(req.url, 'http://p');
    if (u.pathname === '/inventory') {
      const id = u.searchParams.get('locationId');
      const m = Number(id.slice(3));
      const items = Array.from({ length: 60 }, (_, s) => ({
        vendorSku: `P${String(s).padStart(3, '0')}`,
        title: `Product ${s}`,
        priceFen: 200 + s * 10,
        stock: (m * 7 + s) % 13,
        barcode: String(6900000000000 + s),
        slotId: `S${s}`,
        capacity: 12,
      }));
      return answer(200, { items });
    }
    if (u.pathname === '/ledger') {
      const from = Number(u.searchParams.get('fromMs'));
      const to = Number(u.searchParams.get('toMs'));
      const page = Number(u.searchParams.get('page'));
      const size = Number(u.searchParams.get('size'));
      // state.ledger is sorted by updatedAt: binary search the window start.
      let lo = 0;
      let hi = state.ledger.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (state.ledger[mid].updatedAt < from) lo = mid + 1;
        else hi = mid;
      }
      const start = lo + (page - 1) * size;
      const records = [];
      for (let i = start; i < state.ledger.length && records.length < size && state.ledger[i].updatedAt <= to; i++) records.push(state.ledger[i]);
      const next = state.ledger[start + size];
      return answer(200, { records, hasMore: records.length === size && next !== undefined && next.updatedAt <= to });
    }
    answer(404, { ok: false, reason: 'no route' });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ state, url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) })),
  );
}

function ledger(count, fromMs, toMs, prefix) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const t = Math.floor(fromMs + ((toMs - fromMs) * i) / count);
    const lines = [{ vendorSku: `P${String(i % 60).padStart(3, '0')}`, title: `Product ${i % 60}`, quantity: 1, priceFen: 200 + (i % 60) * 10, status: i % 20 === 0 ? 'refunded' : 'paid', costFen: null }];
    if (i % 3 === 0) lines.push({ vendorSku: 'P001', title: 'Product 1', quantity: 2, priceFen: 210, status: 'paid', costFen: 150 });
    const totalFen = lines.reduce((n, l) => n + l.quantity * l.priceFen, 0);
    out.push({ orderNo: `${prefix}${String(i).padStart(7, '0')}`, locationId: loc((i * 7919) % MACHINES), totalFen, createdAt: t, takenAt: t, settledAt: t + 500, updatedAt: t + 1000, finalized: true, state: i % 20 === 0 ? 'refunded' : 'settled', stateRaw: 'S', lines });
  }
  return out;
}

async function startApp(databaseUrl, partnerUrl, port, scheduler) {
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SERVICE_AUTH_TOKEN: token,
    SERVICE_RATE_LIMIT: 'off', // benchmarks measure the service, not the limiter
    SERVICE_PUBLIC_URL: 'http://127.0.0.1', // production requires it (links never come from the Host header)
    SERVICE_SCHEDULER: scheduler ? 'on' : 'off',
    SERVICE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: NS, baseUrl: partnerUrl, token: partnerToken, capabilities: ['inventory', 'ledger'] }]),
    SERVICE_DEFAULT_MACHINE_NAMESPACE: NS,
  };
  const child = spawn(process.execPath, [path.join(dist, 'src', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  const call = async (method, p, body) => {
    const r = await fetch(`${base}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': 'sync-bench/1.0' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await r.json();
    if (r.status >= 300) throw new Error(`${method} ${p}: HTTP ${r.status} ${JSON.stringify(json.messages)}`);
    return json;
  };
  return {
    call,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

async function main() {
  const dbName = `bench_sync_${process.pid}`;
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const databaseUrl = u.toString();
  await admin(`CREATE DATABASE "${dbName}"`);
  const partner = await startPartner();
  const now = Date.now();
  let app = null;
  try {
    // 1. ingestion
    partner.state.ledger = ledger(RECORDS, now - 20 * 86_400_000, now - 4 * 3_600_000, 'I');
    app = await startApp(databaseUrl, partner.url, 19200 + (process.pid % 500), false);
    let t0 = Date.now();
    const r1 = await app.call('POST', '/ucp/v1/locations/sync', { sales_window_days: 30 });
    const s1 = (Date.now() - t0) / 1000;
    const c = new Client({ connectionString: databaseUrl });
    await c.connect();
    const stored = Number((await c.query('SELECT count(*) AS n FROM sale_orders')).rows[0].n);
    const lines = Number((await c.query('SELECT count(*) AS n FROM sale_lines')).rows[0].n);
    console.log(`1. ledger ingestion: ${r1.sales} records read, ${stored} orders and ${lines} lines stored in ${s1.toFixed(1)} s = ${Math.round(stored / s1)} records/s (${partner.state.calls} partner calls)`);
    t0 = Date.now();
    await app.call('POST', '/ucp/v1/locations/sync', { sales_window_days: 30 });
    const s1b = (Date.now() - t0) / 1000;
    console.log(`   the same ${RECORDS} records read again (idempotent, nothing rewritten): ${s1b.toFixed(1)} s = ${Math.round(RECORDS / s1b)} records/s`);

    // 2. full sync at 100 ms per partner answer
    for (let i = 0; i < MACHINES; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, MACHINES - i) }, (_, k) => app.call('PUT', `/ucp/v1/locations/${loc(i + k)}`, { name: `Bench machine ${i + k}` })));
    }
    await app.stop();
    partner.state.ledger = [...partner.state.ledger, ...ledger(6000, now - 3 * 3_600_000 + 60_000, now - 2000, 'R')].sort((a, b) => a.updatedAt - b.updatedAt);
    partner.state.delayMs = DELAY;
    partner.state.peak = 0;
    await c.query('DELETE FROM events');
    app = await startApp(databaseUrl, partner.url, 19800 + (process.pid % 150), true);
    t0 = Date.now();
    let done = [];
    while (Date.now() - t0 < 240_000) {
      const ev = await app.call('GET', '/ucp/v1/events?kind=sync.completed&limit=10');
      done = ev.events.filter((e) => e.data && e.data.trigger === 'scheduled');
      if (done.some((e) => e.data.scope === 'inventory') && done.some((e) => e.data.scope === 'ledger')) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const inv = done.find((e) => e.data.scope === 'inventory');
    const led = done.find((e) => e.data.scope === 'ledger');
    console.log(`2. scheduled jobs at ${DELAY} ms per partner answer (they run side by side; peak ${partner.state.peak} partner calls in flight):`);
    console.log(`   hourly inventory: ${inv.data.synced} machines, ${inv.data.slots} slots in ${(inv.data.duration_ms / 1000).toFixed(1)} s`);
    console.log(`   5-minute ledger over the last 3 hours: ${led.data.read} records, ${led.data.pages} pages in ${(led.data.duration_ms / 1000).toFixed(1)} s`);
    await app.stop();
    app = await startApp(databaseUrl, partner.url, 19950 + (process.pid % 40), false);
    partner.state.ledger = partner.state.ledger.filter((r) => r.orderNo.startsWith('R'));
    partner.state.peak = 0;
    t0 = Date.now();
    const r2 = await app.call('POST', '/ucp/v1/locations/sync', { sales_window_days: 21 });
    const s2 = (Date.now() - t0) / 1000;
    console.log(`   POST /locations/sync: ${r2.locations} machines, ${r2.slots} slots, ${r2.sales} ledger records in ${s2.toFixed(1)} s (peak ${partner.state.peak} in flight)`);
    await c.end();
  } finally {
    if (app) await app.stop().catch(() => undefined);
    await partner.close();
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
