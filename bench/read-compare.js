#!/usr/bin/env node
// Issue 13: the service's hot read routes against the bare stack (bench/bare-server.js: node:http + pg) over the same
// database, in one run, alternating the two for every route and connection count, so that the ratios hold while the
// shared machine's absolute numbers move. Checks first that both answer the same bytes.
// Usage: npm run build && node bench/read-compare.js [--seconds 5] [--rounds 2] [--connections 8,32]
//          [--orders 1000000] [--events 100000] [--log-level info] [--routes first,location,deep,events]
//          [--node-flags service|none (V8 flags of both processes; default: the service's production ones)]
//          [--db-url URL (reuse a loaded database)] [--keep (do not drop the database)] [--profile DIR (--cpu-prof: the service in DIR, the bare server in DIR/bare)]
//          [--event-writes N (issue 21: while either side serves the events route, another writer commits N events a
//           second with their NOTIFY, as another instance would; every one renews the service's cached pages)]
// BENCH_DIST points at another build than ./dist (then also NODE_PATH=./node_modules).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const autocannon = require('autocannon');
const { sql } = require('./data/sql');
const { loadMachines } = require('./data/load-machines');
const { loadEvents } = require('./data/load-events');

const arg = (name, def) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : def);
const flag = (name) => process.argv.includes(`--${name}`);
const seconds = Number(arg('seconds', '5'));
const rounds = Number(arg('rounds', '2'));
const connectionList = arg('connections', '8,32').split(',').map(Number);
const orders = Number(arg('orders', '1000000'));
const eventCount = Number(arg('events', '100000'));
const logLevel = arg('log-level', 'info');
const routeNames = arg('routes', 'first,location,deep,events').split(',');
const profileDir = arg('profile', null);
const eventWrites = Number(arg('event-writes', '0'));
// Both processes run with the service's production V8 flags (scripts/node-flags.js), or none with `--node-flags none`.
const runtimeFlags = arg('node-flags', 'service') === 'none' ? [] : require('../scripts/node-flags').SERVICE_NODE_FLAGS;
const dist = path.resolve(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'));
const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const token = 'bench-token';
const publicUrl = 'http://bench.example';
const svcPort = 19100 + (process.pid % 400);
const barePort = svcPort + 500;
const headers = { authorization: `Bearer ${token}`, 'user-agent': 'read-compare/1.0' };


async function waitUp(url) {
  for (let i = 0; i < 240; i++) {
    try {
      const r = await fetch(url, { headers });
      if (r.status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not start`);
}

function cpuSeconds(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime + stime in clock ticks (100 Hz)
}

/** Commits `perSecond` events a second, each with its NOTIFY (another instance's writes), until stopped. */
async function eventWriter(dbUrl, perSecond) {
  const { Client } = require('pg');
  const c = new Client({ connectionString: dbUrl });
  await c.connect();
  let written = 0;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    c.query(
      `WITH e AS (INSERT INTO events (kind, source, summary, reasoning, location, data)
                  VALUES ('sync.completed', 'service', 'bench writer event', 'another instance committed this while the route was read', 'bm-0001', '{"bench": true}')
                  RETURNING id)
       SELECT pg_notify('ucp_events', id::text) FROM e`,
    )
      .then(() => written++)
      .finally(() => (busy = false));
  }, 1000 / perSecond);
  return async () => {
    clearInterval(timer);
    while (busy) await new Promise((r) => setTimeout(r, 5));
    await c.end();
    return written;
  };
}

function cannon(base, paths, connections, duration) {
  return new Promise((resolve, reject) =>
    autocannon(
      { url: base, connections, duration, headers, requests: paths.map((p) => ({ method: 'GET', path: p })) },
      (err, r) => (err ? reject(err) : resolve(r)),
    ),
  );
}

function stop(child) {
  if (!child || child.exitCode !== null) return Promise.resolve();
  child.kill('SIGTERM');
  return new Promise((r) => child.once('exit', r));
}

async function main() {
  let dbUrl = arg('db-url', null);
  const ownDb = !dbUrl;
  const dbName = `bench_reads_${process.pid}`;
  if (ownDb) {
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
    await sql(adminUrl, `CREATE DATABASE "${dbName}"`);
  }
  let svc = null;
  let bare = null;
  try {
    const env = {
      ...process.env, PORT: String(svcPort), HOST: '127.0.0.1', SERVICE_AUTH_TOKEN: token, SERVICE_SCHEDULER: 'off', SERVICE_RATE_LIMIT: 'off',
      SERVICE_ENV: 'staging', DATABASE_URL: dbUrl, LOG_LEVEL: logLevel, SERVICE_PUBLIC_URL: publicUrl,
    };
    const nodeArgs = [...runtimeFlags, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
    svc = spawn(process.execPath, [...nodeArgs, path.join(dist, 'src', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const svcBase = `http://127.0.0.1:${svcPort}`;
    await waitUp(`${svcBase}/healthz`);
    if (ownDb) {
      console.log(`loading 1,000 machines, ${orders.toLocaleString('en')} sale orders, ${eventCount.toLocaleString('en')} events`);
      await loadMachines(dbUrl, { orders });
      await loadEvents(dbUrl, { events: eventCount });
    }
    const { SIMULATED_MACHINE_NAMESPACE } = require(path.join(dist, 'src', 'partners', 'registry', 'partner-registry.js'));
    const bareArgs = [...runtimeFlags, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, 'bare')}`] : [])];
    bare = spawn(process.execPath, [...bareArgs, path.join(__dirname, 'bare-server.js')], {
      env: { ...process.env, DATABASE_URL: dbUrl, PORT: String(barePort), BENCH_TOKEN: token, PUBLIC_URL: publicUrl, LEDGER_JOB: `ledger:${SIMULATED_MACHINE_NAMESPACE}` },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const bareBase = `http://127.0.0.1:${barePort}`;
    await waitUp(`${bareBase}/ucp/v1/events?limit=1`);

    // Keyset cursors 50 positions deep into the settled sales (every ~2% of the listing), as the service encodes them.
    const step = Math.max(1, Math.floor((orders * 0.85) / 52));
    const deep = (
      await sql(
        dbUrl,
        `SELECT t, id FROM (SELECT to_char(taken_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t, id,
                row_number() OVER (ORDER BY taken_at DESC, id DESC) AS n FROM sale_orders WHERE trade_status = 'settled') s
         WHERE n % $1 = 0 ORDER BY n LIMIT 50`,
        [step],
      )
    ).map((r) => Buffer.from(JSON.stringify(['taken', r.t, r.id])).toString('base64url'));
    const page = '/ucp/v1/orders?kind=sale&limit=100';
    const routes = {
      first: { name: 'orders, first page', paths: [page] },
      location: { name: 'orders, &location= (50 rotating)', paths: Array.from({ length: 50 }, (_, i) => `${page}&location=bm-${String(i * 20 + 7).padStart(4, '0')}`) },
      deep: { name: 'orders, deep pages by cursor', paths: deep.map((c) => `${page}&cursor=${c}`) },
      events: { name: 'events?limit=50', paths: ['/ucp/v1/events?limit=50'] },
    };

    // Same bytes from both, on every path used below.
    let checked = 0;
    for (const key of routeNames) {
      for (const p of routes[key].paths) {
        const [a, b] = await Promise.all([svcBase, bareBase].map((base) => fetch(base + p, { headers }).then(async (r) => ({ status: r.status, body: Buffer.from(await r.arrayBuffer()) }))));
        if (a.status !== 200 || b.status !== 200 || !a.body.equals(b.body)) {
          let i = 0;
          while (i < a.body.length && a.body[i] === b.body[i]) i++;
          throw new Error(`${p}: service ${a.status} ${a.body.length} B, bare ${b.status} ${b.body.length} B, first difference at byte ${i}:\n  service ${a.body.subarray(Math.max(0, i - 80), i + 80)}\n  bare    ${b.body.subarray(Math.max(0, i - 80), i + 80)}`);
        }
        checked++;
      }
    }
    console.log(`byte-equal answers on ${checked} paths (first page ${(await (await fetch(svcBase + page, { headers })).arrayBuffer()).byteLength} B)`);

    for (const key of routeNames) {
      for (const base of [svcBase, bareBase]) await cannon(base, routes[key].paths, 8, 1); // warm-up, one at a time
    }

    const results = [];
    for (const connections of connectionList) {
      for (const key of routeNames) {
        for (let round = 0; round < rounds; round++) {
          const row = { key, connections, round };
          const order = round % 2 === 0 ? ['svc', 'bare'] : ['bare', 'svc'];
          for (const who of order) {
            const pid = who === 'svc' ? svc.pid : bare.pid;
            const stopWriter = key === 'events' && eventWrites > 0 ? await eventWriter(dbUrl, eventWrites) : null;
            const c0 = cpuSeconds(pid);
            const r = await cannon(who === 'svc' ? svcBase : bareBase, routes[key].paths, connections, seconds);
            const cores = (cpuSeconds(pid) - c0) / seconds;
            if (stopWriter) row[`${who}Writes`] = await stopWriter();
            if (r.non2xx || r.errors) throw new Error(`${who} ${key}: non-2xx ${r.non2xx}, errors ${r.errors}`);
            row[who] = { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cores, cpuMs: (cores * 1000) / r.requests.average };
          }
          row.rpsRatio = row.svc.rps / row.bare.rps;
          row.p99Ratio = row.svc.p99 / row.bare.p99;
          row.cpuRatio = row.svc.cpuMs / row.bare.cpuMs;
          results.push(row);
          console.log(
            `${String(connections).padStart(2)} conn  ${routes[key].name.padEnd(34)} service ${row.svc.rps.toFixed(0).padStart(5)} req/s p99 ${String(row.svc.p99).padStart(3)} ms (${row.svc.cores.toFixed(2)} cores) | ` +
              `bare ${row.bare.rps.toFixed(0).padStart(5)} req/s p99 ${String(row.bare.p99).padStart(3)} ms (${row.bare.cores.toFixed(2)} cores) | ratio req/s ${row.rpsRatio.toFixed(2)}, p99 ${row.p99Ratio.toFixed(2)}, CPU ms/request ${row.svc.cpuMs.toFixed(2)}/${row.bare.cpuMs.toFixed(2)}` +
              (row.svcWrites !== undefined ? ` | events written meanwhile ${row.svcWrites}/${row.bareWrites}` : ''),
          );
        }
      }
    }
    console.log('\nsummary (range over rounds): service/bare req/s, service p99 / bare p99, service/bare CPU time per request');
    for (const connections of connectionList) {
      for (const key of routeNames) {
        const rs = results.filter((r) => r.key === key && r.connections === connections);
        const range = (f) => {
          const v = rs.map(f);
          return `${Math.min(...v).toFixed(2)}–${Math.max(...v).toFixed(2)}`;
        };
        console.log(`  ${String(connections).padStart(2)} conn  ${routes[key].name.padEnd(34)} req/s ${range((r) => r.rpsRatio)}   p99 ${range((r) => r.p99Ratio)}   CPU/request ${range((r) => r.cpuRatio)}`);
      }
    }
  } finally {
    await Promise.all([stop(svc), stop(bare)]);
    if (ownDb && !flag('keep')) await sql(adminUrl, `DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    else if (ownDb) console.log(`kept database: ${dbUrl}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
