#!/usr/bin/env node
// Issue 13: boot time and memory of the embedded default (PGlite). Starts `dist/main.js` (staging, no DATABASE_URL)
// on a fresh SERVICE_DATA_DIR, times it to the first 200 from /readyz, reads the process RSS (VmRSS and VmHWM, the peak)
// then and after 3 s idle, stops it, then does the same again on the now existing directory. Removes the directory.
// Usage: npm run build && node bench/embedded-boot.js [--runs 2]   (BENCH_DIST as in the other benches)
const { spawn } = require('node:child_process');
const { SERVICE_NODE_FLAGS } = require('../scripts/node-flags');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const runs = Number(process.argv.includes('--runs') ? process.argv[process.argv.indexOf('--runs') + 1] : 2);
const dist = path.resolve(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'));
const port = 19900 + (process.pid % 90);

const mem = (pid) => {
  const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)[1]);
  return `RSS ${(kb('VmRSS') / 1024).toFixed(0)} MB (peak ${(kb('VmHWM') / 1024).toFixed(0)} MB)`;
};

async function boot(dataDir, label) {
  const t0 = Date.now();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', SERVICE_AUTH_TOKEN: 'bench-token', SERVICE_ENV: 'staging', SERVICE_SCHEDULER: 'off', SERVICE_RATE_LIMIT: 'off', SERVICE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, path.join(dist, 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
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
    await new Promise((r) => setTimeout(r, 3000));
    console.log(`${label.padEnd(18)} ready in ${(ready / 1000).toFixed(2)} s; ${atReady} at ready, ${mem(child.pid)} 3 s later`);
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
