#!/usr/bin/env node
// Issue 13: POST /ucp/v1/checkout-sessions (create) and GET /ucp/v1/checkout-sessions/{id} at 8 and 32 connections
// (autocannon), staging with the simulated supplier, on PostgreSQL. Also counts the database transactions each
// create commits (pg_stat_database.xact_commit before and after, over the whole run; autocommit statements count).
// Issue 28: PostgreSQL CPU is that of the bench database's backends only, and its ratio keyed/plain is printed.
// Issue 21: the same create with a fresh Idempotency-Key on every request, alternated with the plain one in each
// round (which goes first alternates too), and the ratio keyed / plain of req/s and p99.
// Usage: npm run build && node bench/checkout-create.js [--seconds 5] [--connections 8,32] [--rounds 2] [--warmup 5] [--profile DIR]
// --warmup: seconds of each variant before the first round (with 1 s, the first rounds measured the JIT's warm-up:
// plain creates went 512 -> 731 -> 920 req/s over three rounds).
const { spawn } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const { SERVICE_NODE_FLAGS } = require('../scripts/node-flags');
const fs = require('node:fs');
const path = require('node:path');
const autocannon = require('autocannon');
const { sql } = require('./data/sql');

const arg = (name, def) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : def);
const seconds = Number(arg('seconds', '5'));
const rounds = Number(arg('rounds', '2'));
const connectionList = arg('connections', '8,32').split(',').map(Number);
const warmup = Number(arg('warmup', '5'));
const dist = path.resolve(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'));
const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const token = 'bench-token-0123456789';
const port = 19700 + (process.pid % 200);
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': 'checkout-create/1.0' };


/** CPU seconds the process has used (utime + stime, 100 Hz ticks). */
function cpuOf(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/**
 * CPU seconds of the PostgreSQL backends serving the bench's database (issue 28: summing every `postgres` process
 * counted other work on a shared machine, even negative figures when other backends exited). The pool keeps its
 * connections through a run (idle timeout 10 s); `pids` are taken once before the run.
 */
async function benchBackends(adminUrl, dbName) {
  return (await sql(adminUrl, 'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [dbName])).map((r) => r.pid);
}
function postgresCpu(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      total += cpuOf(pid);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

function cannon(opts) {
  return new Promise((resolve, reject) => autocannon({ connections: 8, duration: seconds, headers, ...opts }, (e, r) => (e ? reject(e) : resolve(r))));
}

async function main() {
  const dbName = `bench_checkout_${process.pid}`;
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const dbUrl = u.toString();
  await sql(adminUrl, `CREATE DATABASE "${dbName}"`);
  let child = null;
  try {
    const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', SERVICE_AUTH_TOKEN: token, SERVICE_SCHEDULER: 'off', SERVICE_RATE_LIMIT: 'off', SERVICE_ENV: 'staging', DATABASE_URL: dbUrl, LOG_LEVEL: arg('log-level', 'info') };
    const prof = arg('profile', null);
    child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []), path.join(dist, 'src', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {}
      if (i > 200) throw new Error('service did not start');
      await new Promise((r) => setTimeout(r, 250));
    }
    const { SIMULATED_SUPPLY_NAMESPACE: ns } = require(path.join(dist, 'src', 'partners', 'registry', 'partner-registry.js'));
    const body = JSON.stringify({
      line_items: [{ item: { id: `${ns}:SKU-1001` }, quantity: 2 }, { item: { id: `${ns}:SKU-1002` }, quantity: 1 }],
      fulfillment: { methods: [{ type: 'shipping', destinations: [{ street_address: 'x', first_name: 'y', phone_number: '1' }] }] },
    });
    const first = await fetch(`${base}/ucp/v1/checkout-sessions`, { method: 'POST', headers, body });
    const created = await first.json();
    if (first.status !== 201) throw new Error(`create answered ${first.status}: ${JSON.stringify(created.messages)}`);
    console.log(`one create: ${created.status}, ${created.line_items.length} lines, ${JSON.stringify(created).length} B`);
    await cannon({ url: `${base}/ucp/v1/checkout-sessions`, method: 'POST', body, connections: 8, duration: warmup }); // warm-up
    const commits = async () => Number((await sql(adminUrl, 'SELECT xact_commit FROM pg_stat_database WHERE datname = $1', [dbName]))[0].xact_commit);
    const freshKey = (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } });
    await cannon({ url: `${base}/ucp/v1/checkout-sessions`, method: 'POST', body, connections: 8, duration: warmup, requests: [{ setupRequest: freshKey }] }); // warm-up
    const create = async (connections, keyed) => {
      const x0 = await commits();
      const cpu0 = cpuOf(child.pid);
      const pids = await benchBackends(adminUrl, dbName);
      const pg0 = postgresCpu(pids);
      const c = await cannon({ url: `${base}/ucp/v1/checkout-sessions`, method: 'POST', body, connections, ...(keyed ? { requests: [{ setupRequest: freshKey }] } : {}) });
      const cpuMs = ((cpuOf(child.pid) - cpu0) * 1000) / c.requests.total;
      const pgMs = ((postgresCpu(pids) - pg0) * 1000) / c.requests.total;
      await new Promise((res) => setTimeout(res, 600)); // pg_stat counters are flushed about every 0.5 s
      return { c, cpuMs, pgMs, perCreate: ((await commits()) - x0) / c.requests.total };
    };
    const line = (label, { c, cpuMs, pgMs, perCreate }) =>
      `${label} ${c.requests.average.toFixed(0).padStart(5)} req/s p99 ${String(c.latency.p99).padStart(4)} ms, service CPU ${cpuMs.toFixed(2)} ms each, PostgreSQL ${pgMs.toFixed(2)} (non-2xx ${c.non2xx}, ~${perCreate.toFixed(2)} commits each)`;
    const ratios = [];
    for (const connections of connectionList) {
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 ? [true, false] : [false, true];
        const out = {};
        for (const keyed of order) out[keyed] = await create(connections, keyed);
        const g = await cannon({ url: `${base}/ucp/v1/checkout-sessions/${created.id}`, method: 'GET', connections });
        const rps = out[false].c.requests.average / out[true].c.requests.average;
        const p99 = out[true].c.latency.p99 / out[false].c.latency.p99;
        const cpu = out[true].cpuMs / out[false].cpuMs;
        const pg = out[true].pgMs / out[false].pgMs;
        ratios.push({ connections, rps, p99, cpu, pg });
        console.log(
          `${String(connections).padStart(2)} conn  ${line('create', out[false])} | ${line('keyed', out[true])} | cost keyed/plain ${rps.toFixed(2)} (p99 ${p99.toFixed(2)}, CPU ${cpu.toFixed(2)}) | ` +
            `get ${g.requests.average.toFixed(0).padStart(5)} req/s p99 ${g.latency.p99} ms (non-2xx ${g.non2xx})`,
        );
      }
    }
    for (const connections of connectionList) {
      const mine = ratios.filter((x) => x.connections === connections);
      const list = (k) => mine.map((x) => x[k]).sort((a, b) => a - b).map((x) => x.toFixed(2)).join(', ');
      console.log(`${connections} conn: keyed create costs ${list('rps')} x the plain one (plain req/s / keyed req/s); service CPU per create keyed/plain ${list('cpu')}; PostgreSQL CPU keyed/plain ${list('pg')}`);
    }
  } finally {
    if (child) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await sql(adminUrl, `DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
