#!/usr/bin/env node
// Issue 13: boot time and memory of the embedded default (PGlite). Starts `dist/main.js` (staging, no DATABASE_URL)
// on a fresh SERVICE_DATA_DIR, times it to the first 200 from /readyz, reads the process RSS (VmRSS and VmHWM, the peak)
// then and after 3 s idle, stops it, then does the same again on the now existing directory. Removes the directory.
// Issue 21: with SERVICE_STAGING_SEED=on (what `npm start` runs), also the RSS once the seed's first sync has
// completed (its sync.completed event) and after 100 mixed reads (50 sales ledger pages, 50 replenishment plans,
// alternating), and whether that is within --budget-mb (300).
// Usage: npm run build && node bench/embedded-boot.js [--runs 2] [--budget-mb 300] [--node-flags service|none|a,b]   (BENCH_DIST as in the other benches)
const { spawn } = require('node:child_process');
const { SERVICE_NODE_FLAGS } = require('../scripts/node-flags');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const runs = Number(process.argv.includes('--runs') ? process.argv[process.argv.indexOf('--runs') + 1] : 2);
const dist = path.resolve(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'));
const port = 19900 + (process.pid % 90);
const flagArg = process.argv.includes('--node-flags') ? process.argv[process.argv.indexOf('--node-flags') + 1] : 'service';
// The service's V8 flags (scripts/node-flags.js), none, or a comma-separated list to compare.
const nodeFlags = flagArg === 'service' ? SERVICE_NODE_FLAGS : flagArg === 'none' ? [] : flagArg.split(',');
const budgetMb = Number(process.argv.includes('--budget-mb') ? process.argv[process.argv.indexOf('--budget-mb') + 1] : 300);
const base = `http://127.0.0.1:${port}`;
const auth = { authorization: 'Bearer bench-token-0123456789' };

/** The RSS in MB (VmRSS). */
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function getOk(p) {
  const res = await fetch(`${base}${p}`, { headers: auth });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${p} answered ${res.status}: ${text.slice(0, 200)}`);
  return text;
}

/** Waits for the staging seed's first sync (its sync.completed or sync.failed event). */
async function seedSynced(t0) {
  for (;;) {
    const events = JSON.parse(await getOk('/ucp/v1/events?limit=200')).events ?? [];
    const done = events.find((e) => e.kind === 'sync.completed' || e.kind === 'sync.failed');
    if (done) return done.kind;
    if (Date.now() - t0 > 300_000) throw new Error('no sync event in 300 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const mem = (pid) => {
  const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)[1]);
  return `RSS ${(kb('VmRSS') / 1024).toFixed(0)} MB (peak ${(kb('VmHWM') / 1024).toFixed(0)} MB)`;
};

async function boot(dataDir, label) {
  const t0 = Date.now();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', SERVICE_AUTH_TOKEN: 'bench-token-0123456789', SERVICE_ENV: 'staging', SERVICE_SCHEDULER: 'off', SERVICE_RATE_LIMIT: 'off', SERVICE_STAGING_SEED: 'on', SERVICE_GUARDS: fs.readFileSync(path.join(__dirname, '..', 'config', 'guards.demo.json'), 'utf8'), SERVICE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [...nodeFlags, path.join(dist, 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
      } catch {}
      if (Date.now() - t0 > 120_000) throw new Error('no ready answer in 120 s');
      await new Promise((r) => setTimeout(r, 25));
    }
    const ready = Date.now() - t0;
    const atReady = mem(child.pid);
    const synced = await seedSynced(t0);
    const seeded = Date.now() - t0;
    const afterSeed = mem(child.pid);
    let largest = 0;
    const r0 = Date.now();
    for (let i = 0; i < 100; i++) {
      await getOk(i % 2 ? '/ucp/v1/replenishment/plan' : '/ucp/v1/orders?kind=sale&limit=100');
      largest = Math.max(largest, rssMb(child.pid));
    }
    const readsMs = Date.now() - r0;
    const afterReads = rssMb(child.pid);
    console.log(
      `${label.padEnd(18)} ready in ${(ready / 1000).toFixed(2)} s; ${atReady} at ready; seed ${synced} at ${(seeded / 1000).toFixed(1)} s, ${afterSeed}; ` +
        `100 reads in ${(readsMs / 1000).toFixed(2)} s, then RSS ${afterReads.toFixed(0)} MB (largest during them ${largest.toFixed(0)} MB) ${largest <= budgetMb ? '<=' : '>'} ${budgetMb} MB`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

(async () => {
  for (let i = 0; i < runs; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-boot-'));
    try {
      await boot(dir, 'fresh directory');
      await boot(dir, 'existing directory');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
