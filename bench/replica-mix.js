#!/usr/bin/env node
// Issue 38: where the reads of a mixed load go, with the real programs: N built service processes whose DATABASE_URL
// is PgBouncer (transaction mode) in front of the local PostgreSQL, DATABASE_READ_URL its streaming replica and
// DATABASE_LISTEN_URL the primary (scripts/test-replica.sh sets both up). Writers (the operator credential) post an
// event and read their own kind back from the next instance; readers (the approver credential) read the stale-ok
// lists. Optionally the replica's replay is paused for a while mid-run. Prints the reads served by the replica and by
// the primary (by reason), summed over the instances' /metrics, and the request latencies.
// Usage: npm run build && scripts/test-replica.sh && node bench/replica-mix.js [--seconds 20] [--instances 2]
//          [--writers 2] [--readers 6] [--machines 200] [--max-lag-ms 2000] [--pause-ms 0 (replay paused that long mid-run)]
const { spawn } = require('node:child_process');
const path = require('node:path');
const { Client } = require('pg');

const arg = (name, def) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : def);
const seconds = Number(arg('seconds', '20'));
const instances = Number(arg('instances', '2'));
const writers = Number(arg('writers', '2'));
const readers = Number(arg('readers', '6'));
const machines = Number(arg('machines', '200'));
const maxLagMs = arg('max-lag-ms', '2000');
const pauseMs = Number(arg('pause-ms', '0'));
const REPLICA_PORT = Number(process.env.TEST_REPLICA_PORT ?? 5433);
const PGBOUNCER_PORT = Number(process.env.TEST_PGBOUNCER_PORT ?? 6432);
const OPERATOR = 'bench-operator-token-1f6a2c';
const APPROVER = 'bench-approver-token-8b3e5d';
const METRICS = 'bench-metrics-token-4c7d9a';
const basePort = 19600 + (process.pid % 200);
const dbName = `bench_replica_${process.pid}`;
const on = (port, db) => `postgres://postgres@127.0.0.1:${port}/${db}`;

async function query(port, db, text, values) {
  const c = new Client({ connectionString: on(port, db) });
  await c.connect();
  try {
    return (await c.query(text, values)).rows;
  } finally {
    await c.end();
  }
}

async function waitFor(probe, what, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if (await probe()) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function startService(i) {
  const env = {
    PATH: process.env.PATH,
    PORT: String(basePort + i),
    HOST: '127.0.0.1',
    SERVICE_AUTH_TOKEN: OPERATOR,
    SERVICE_APPROVER_TOKEN: APPROVER,
    SERVICE_METRICS_TOKEN: METRICS,
    SERVICE_SCHEDULER: 'off',
    SERVICE_RATE_LIMIT: 'off',
    SERVICE_EVENT_PAGE_CACHE: 'off',
    LOG_LEVEL: 'warn',
    DATABASE_URL: on(PGBOUNCER_PORT, dbName),
    DATABASE_READ_URL: on(REPLICA_PORT, dbName),
    DATABASE_LISTEN_URL: on(5432, dbName),
    DATABASE_READ_MAX_LAG_MS: maxLagMs,
    DATABASE_READ_PROBE_MS: '200',
  };
  return spawn(process.execPath, [path.join(__dirname, '..', 'dist', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
}

const base = (i) => `http://127.0.0.1:${basePort + i}`;
const latencies = { write: [], own_read: [], stale_read: [] };
const failures = [];

async function timed(kind, url, init) {
  const t = performance.now();
  const res = await fetch(url, init);
  const body = await res.json().catch(() => null);
  latencies[kind].push(performance.now() - t);
  if (res.status >= 300) failures.push(`${res.status} ${init?.method ?? 'GET'} ${url}`);
  return { status: res.status, body };
}

async function main() {
  await query(5432, 'postgres', `CREATE DATABASE "${dbName}"`);
  const children = [];
  try {
    // The first instance migrates; the others boot on the migrated schema.
    children.push(startService(0));
    await waitFor(async () => (await fetch(`${base(0)}/readyz`)).status === 200, 'the first instance');
    for (let i = 1; i < instances; i++) children.push(startService(i));
    for (let i = 0; i < instances; i++) await waitFor(async () => (await (await fetch(`${base(i)}/readyz`)).json()).replicas?.[0]?.state === 'up', `instance ${i} reading the replica`);
    await query(5432, dbName, `INSERT INTO locations (id, namespace, name) SELECT 'm-' || g, 'bench-machine', 'Machine ' || g FROM generate_series(1, $1) g`, [machines]);

    const until = Date.now() + seconds * 1000;
    const running = () => Date.now() < until;
    let next = 0;
    const pick = () => base(next++ % instances);
    const op = { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' };
    const ap = { authorization: `Bearer ${APPROVER}` };
    let stale = 0;
    let written = 0;
    const writer = async (w) => {
      for (let i = 0; running(); i++) {
        const kind = `bench.${w}`;
        const summary = `w${w}#${i}`;
        const res = await timed('write', `${pick()}/ucp/v1/events`, { method: 'POST', headers: op, body: JSON.stringify({ kind, summary, reasoning: 'bench' }) });
        if (res.status !== 201) continue;
        written++;
        const back = await timed('own_read', `${pick()}/ucp/v1/events?kind=${kind}&limit=1`, { headers: op });
        if (back.status === 200 && back.body?.events?.[0]?.summary !== summary) stale++;
      }
    };
    const paths = ['/ucp/v1/fleet', '/ucp/v1/orders', '/ucp/v1/sales/daily', '/ucp/v1/events?limit=50'];
    const reader = async () => {
      for (let i = 0; running(); i++) await timed('stale_read', `${pick()}${paths[i % paths.length]}`, { headers: ap });
    };
    const pauser = async () => {
      if (!pauseMs) return;
      await new Promise((r) => setTimeout(r, Math.max(0, (seconds * 1000 - pauseMs) / 2)));
      await query(REPLICA_PORT, 'postgres', 'SELECT pg_wal_replay_pause()');
      await new Promise((r) => setTimeout(r, pauseMs));
      await query(REPLICA_PORT, 'postgres', 'SELECT pg_wal_replay_resume()');
    };
    await Promise.all([...Array.from({ length: writers }, (_, w) => writer(w)), ...Array.from({ length: readers }, () => reader()), pauser()]);

    const counts = {};
    for (let i = 0; i < instances; i++) {
      const text = await (await fetch(`${base(i)}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } })).text();
      for (const line of text.split('\n').filter((l) => l.startsWith('db_reads_total{'))) {
        const target = /target="([^"]*)"/.exec(line)[1];
        const reason = /reason="([^"]*)"/.exec(line)[1];
        const key = target === 'replica' ? 'replica' : `primary (${reason})`;
        counts[key] = (counts[key] ?? 0) + Number(line.split(' ').pop());
      }
    }
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const pct = (xs, p) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))].toFixed(1) : '-');
    console.log(`\n${seconds} s, ${instances} instances behind PgBouncer, ${writers} writers + ${readers} readers, max lag ${maxLagMs} ms${pauseMs ? `, replay paused ${pauseMs} ms mid-run` : ''}`);
    console.log(`writes ${written}, stale reads of one's own write ${stale}, failed requests ${failures.length}\n`);
    console.log('| stale-ok reads served by | reads | share |\n|---|---:|---:|');
    for (const [k, n] of Object.entries(counts).sort((a, b) => b[1] - a[1])) console.log(`| ${k} | ${n} | ${((100 * n) / total).toFixed(1)}% |`);
    console.log('\n| requests | n | p50 ms | p99 ms |\n|---|---:|---:|---:|');
    for (const [k, xs] of Object.entries(latencies)) console.log(`| ${k} | ${xs.length} | ${pct(xs, 0.5)} | ${pct(xs, 0.99)} |`);
    if (failures.length) console.log(`\nfailures (first 5): ${failures.slice(0, 5).join('; ')}`);
  } finally {
    await query(REPLICA_PORT, 'postgres', 'SELECT pg_wal_replay_resume()').catch(() => undefined);
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    await query(5432, 'postgres', `DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
