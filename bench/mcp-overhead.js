#!/usr/bin/env node
// Issue 18: the MCP transport's overhead over the same REST call. `get_checkout` (POST /ucp/mcp, tools/call, stateless
// Streamable HTTP, JSON answer) against `GET /ucp/v1/checkout-sessions/{id}` on one session, at 8 connections,
// alternated round by round in one run so both see the same machine load. Checks first that both answer the same JSON.
// Usage: npm run build && node bench/mcp-overhead.js [--seconds 5] [--rounds 3] [--connections 8] [--log-level info]
// BENCH_DIST points at another build than ./dist.
const { spawn } = require('node:child_process');
const path = require('node:path');
const autocannon = require('autocannon');
const { SERVICE_NODE_FLAGS } = require('../scripts/node-flags');
const { sql } = require('./data/sql');

const arg = (name, def) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : def);
const seconds = Number(arg('seconds', '5'));
const rounds = Number(arg('rounds', '3'));
const connections = Number(arg('connections', '8'));
const dist = path.resolve(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'));
const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const token = 'bench-token-0123456789';
const port = 19300 + (process.pid % 200);
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': 'mcp-overhead/1.0' };
const mcpHeaders = { ...headers, accept: 'application/json, text/event-stream' };

/** CPU seconds the service process has used (utime + stime): per-request CPU holds while the shared machine's load moves. */
function cpuSeconds(pid) {
  const f = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

function cannon(opts) {
  return new Promise((resolve, reject) => autocannon({ connections, duration: seconds, headers, ...opts }, (e, r) => (e ? reject(e) : resolve(r))));
}

async function main() {
  const dbName = `bench_mcp_${process.pid}`;
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  await sql(adminUrl, `CREATE DATABASE "${dbName}"`);
  let child = null;
  try {
    const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', SERVICE_AUTH_TOKEN: token, SERVICE_SCHEDULER: 'off', SERVICE_ENV: 'staging', DATABASE_URL: u.toString(), LOG_LEVEL: arg('log-level', 'info') };
    child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, path.join(dist, 'src', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {}
      if (i > 200) throw new Error('service did not start');
      await new Promise((r) => setTimeout(r, 250));
    }
    const { SIMULATED_SUPPLY_NAMESPACE: ns } = require(path.join(dist, 'src', 'partners', 'registry', 'partner-registry.js'));
    const created = await (
      await fetch(`${base}/ucp/v1/checkout-sessions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ line_items: [{ item: { id: `${ns}:SKU-1001` }, quantity: 2 }], fulfillment: { methods: [{ type: 'shipping', destinations: [{ street_address: 'x', first_name: 'y', phone_number: '1' }] }] } }),
      })
    ).json();
    const restPath = `/ucp/v1/checkout-sessions/${created.id}`;
    const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_checkout', arguments: { id: created.id } } });
    const rest = await (await fetch(`${base}${restPath}`, { headers })).json();
    const tool = await (await fetch(`${base}/ucp/mcp`, { method: 'POST', headers: mcpHeaders, body: call })).json();
    if (JSON.stringify(tool.result?.structuredContent) !== JSON.stringify(rest)) throw new Error(`the two answers differ: ${JSON.stringify(tool).slice(0, 400)}`);
    console.log(`session ${created.id}: both answer the same ${JSON.stringify(rest).length} B of ucp JSON`);
    const restRun = () => cannon({ url: `${base}${restPath}`, method: 'GET' });
    const mcpRun = () => cannon({ url: `${base}/ucp/mcp`, method: 'POST', headers: mcpHeaders, body: call });
    await restRun(); // warm-up (the first tool call also derives the tools from the OpenAPI document)
    await mcpRun();
    const rows = [];
    for (let r = 0; r < rounds; r++) {
      for (const [name, run] of r % 2 ? [['mcp get_checkout', mcpRun], ['rest GET', restRun]] : [['rest GET', restRun], ['mcp get_checkout', mcpRun]]) {
        const cpu0 = cpuSeconds(child.pid);
        const x = await run();
        const cpuMs = ((cpuSeconds(child.pid) - cpu0) * 1000) / x.requests.total;
        rows.push({ name, round: r + 1, rps: x.requests.average, p50: x.latency.p50, p99: x.latency.p99, cpuMs, non2xx: x.non2xx, errors: x.errors });
        console.log(`round ${r + 1} ${name.padEnd(16)} ${x.requests.average.toFixed(0).padStart(5)} req/s  p50 ${x.latency.p50} ms  p99 ${x.latency.p99} ms  ${cpuMs.toFixed(2)} ms CPU/req  (non-2xx ${x.non2xx}, errors ${x.errors})`);
      }
    }
    const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    for (const name of ['rest GET', 'mcp get_checkout']) {
      const mine = rows.filter((x) => x.name === name);
      console.log(`${name.padEnd(16)} median of ${mine.length} rounds at ${connections} connections: ${median(mine.map((x) => x.rps)).toFixed(0)} req/s, p50 ${median(mine.map((x) => x.p50))} ms, p99 ${median(mine.map((x) => x.p99))} ms, ${median(mine.map((x) => x.cpuMs)).toFixed(2)} ms CPU/req`);
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
