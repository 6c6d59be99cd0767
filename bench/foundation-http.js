#!/usr/bin/env node
// Quick load check of the foundation (issue 2): GET /ucp/v1/namespaces and GET /ucp/v1/events requests per second
// on this machine, against a bare node:http server returning the same bytes, as a ratio.
// Usage: npm run build && node bench/foundation-http.js [--db postgres|embedded] [--seconds 10] [--connections 32]
//          [--rate-limit N (the limiter on, N requests a window: its cost per request; default off)]
// BENCH_DIST points at another build than ./dist (to compare two commits in one run).
// With --db postgres it creates (and drops) a database on TEST_PG_URL's server.
const { spawn } = require('node:child_process');
const http = require('node:http');
const path = require('node:path');
const autocannon = require('autocannon');
const { sql } = require('./data/sql');

const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const seconds = Number(arg('seconds', '10'));
const connections = Number(arg('connections', '32'));
const db = arg('db', 'postgres');
const rateLimit = arg('rate-limit', 'off');
const dist = path.resolve(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'));
const token = 'bench-token-0123456789';
const port = 18080 + (process.pid % 1000);
const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const admin = (text) => sql(adminUrl, text);

function run(url, headers) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections, duration: seconds, headers }, (err, r) => (err ? reject(err) : resolve(r))),
  );
}

async function waitUp(url) {
  for (let i = 0; i < 120; i++) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('service did not start');
}

async function main() {
  const dbName = `bench_foundation_${process.pid}`;
  const env = { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', SERVICE_AUTH_TOKEN: token, SERVICE_SCHEDULER: 'off', SERVICE_RATE_LIMIT: rateLimit, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn' };
  if (db === 'postgres') {
    await admin(`CREATE DATABASE "${dbName}"`);
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    env.DATABASE_URL = u.toString();
  } else {
    env.SERVICE_DATA_DIR = 'memory://';
  }
  const child = spawn(process.execPath, [path.join(dist, 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${token}`, 'user-agent': 'vending-bench/1.0' };
  try {
    await waitUp(`${base}/healthz`);
    for (let i = 0; i < 200; i++) {
      await fetch(`${base}/ucp/v1/events`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: i % 2 ? 'bench.a' : 'bench.b', summary: `event ${i}`, reasoning: 'bench seed', location: `loc-${i % 10}` }),
      });
    }
    const results = [];
    for (const route of ['/ucp/v1/namespaces', '/ucp/v1/events']) {
      const sample = await fetch(base + route, { headers });
      const bytes = Buffer.from(await sample.arrayBuffer());
      const svc = await run(base + route, headers);
      const bare = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
        res.end(bytes);
      });
      await new Promise((r) => bare.listen(0, '127.0.0.1', r));
      const bareRes = await run(`http://127.0.0.1:${bare.address().port}${route}`, headers);
      bare.close();
      results.push({
        route,
        bytes: bytes.length,
        service_rps: Math.round(svc.requests.average),
        service_p99_ms: svc.latency.p99,
        bare_rps: Math.round(bareRes.requests.average),
        ratio: +(svc.requests.average / bareRes.requests.average).toFixed(3),
        errors: svc.errors + svc.non2xx,
      });
    }
    console.log(`db=${db} connections=${connections} seconds=${seconds}`);
    console.table(results);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
    if (db === 'postgres') await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
