#!/usr/bin/env node
// Sales ledger read bench (issue 3): 1,000 machines x 60 slots and 1,000,000 sale orders in PostgreSQL, then
// GET /ucp/v1/orders?kind=sale&limit=100 without and with a `location` filter at 32 connections (autocannon),
// with the query plans (EXPLAIN ANALYZE) of both page queries. Creates and drops its own database.
// Usage: npm run build && node bench/orders-bench.js [--seconds 10] [--connections 32] [--orders 1000000]
//   BENCH_DIST=/path/to/compiled/output points at another build than ./dist (then also NODE_PATH=./node_modules).
const { spawn } = require('node:child_process');
const path = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { sql } = require('./data/sql');
const { loadMachines } = require('./data/load-machines');

const arg = (name, def) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : def);
const seconds = Number(arg('seconds', '10'));
const connections = Number(arg('connections', '32'));
const orders = Number(arg('orders', '1000000'));
const dist = path.resolve(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'));
const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const token = 'bench-token-0123456789';
const port = 19080 + (process.pid % 1000);

const admin = (text) => sql(adminUrl, text);

async function waitUp(url) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('service did not start');
}

function cannon(url) {
  return new Promise((resolve, reject) =>
    autocannon(
      { url, connections, duration: seconds, headers: { authorization: `Bearer ${token}`, 'user-agent': 'orders-bench/1.0' } },
      (err, r) => (err ? reject(err) : resolve(r)),
    ),
  );
}

async function main() {
  const dbName = `bench_orders_${process.pid}`;
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const databaseUrl = u.toString();
  await admin(`CREATE DATABASE "${dbName}"`);
  let child = null;
  try {
    const env = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SERVICE_AUTH_TOKEN: token,
      SERVICE_RATE_LIMIT: 'off', // benchmarks measure the service, not the limiter
      SERVICE_SCHEDULER: 'off',
      SERVICE_ENV: 'staging',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
    };
    child = spawn(process.execPath, [path.join(dist, 'src', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const base = `http://127.0.0.1:${port}`;
    await waitUp(`${base}/healthz`); // migrations ran at boot
    console.log(`loading 1,000 machines x 60 slots and ${orders.toLocaleString('en')} sale orders`);
    const t0 = Date.now();
    await loadMachines(databaseUrl, { orders });
    console.log(`data loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    // The plans of the exact page queries the service runs (SalesRepository builds them).
    const { SalesRepository } = require(path.join(dist, 'src', 'sales', 'sales.repository.js'));
    const c = new Client({ connectionString: databaseUrl });
    c.on('error', () => undefined);
    await c.connect();
    const repo = new SalesRepository({ query: (sql, params) => c.query(sql, params).then((r) => r.rows) });
    const q = { tradeStatus: 'settled', sortBy: 'taken', limit: 101 };
    console.log('\nEXPLAIN ANALYZE, first page, no filter:\n' + (await repo.explain(q, true)));
    console.log('\nEXPLAIN ANALYZE, first page, location=bm-0042:\n' + (await repo.explain({ ...q, locationId: 'bm-0042' }, true)));
    const mid = (await c.query(`SELECT to_char(taken_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t, id FROM sale_orders ORDER BY taken_at DESC, id DESC OFFSET $1 LIMIT 1`, [Math.floor(orders / 2)])).rows[0];
    console.log(`\nEXPLAIN ANALYZE, a page ${Math.floor(orders / 2).toLocaleString('en')} orders deep (keyset cursor):\n` + (await repo.explain({ ...q, after: { t: mid.t, id: mid.id } }, true)));
    await c.end();

    const results = [];
    for (const [name, p] of [
      ['GET /ucp/v1/orders?kind=sale&limit=100', '/ucp/v1/orders?kind=sale&limit=100'],
      ['GET /ucp/v1/orders?kind=sale&limit=100&location=bm-0042', '/ucp/v1/orders?kind=sale&limit=100&location=bm-0042'],
    ]) {
      const check = await fetch(`${base}${p}`, { headers: { authorization: `Bearer ${token}` } });
      const body = await check.json();
      if (check.status !== 200 || body.orders.length === 0) throw new Error(`${name}: HTTP ${check.status}, ${body.orders?.length} orders`);
      const r = await cannon(`${base}${p}`);
      results.push({ name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors });
    }
    console.log(`\n${connections} connections, ${seconds} s each:`);
    for (const r of results) {
      console.log(`  ${r.name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`);
    }
  } finally {
    if (child) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
