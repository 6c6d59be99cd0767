#!/usr/bin/env node
// Issue 19: the operator console at fleet scale. Seeds N machines (default 1,000) with 10 slots each and 7 days of
// settled sales into the built service (embedded database in memory, or a fresh PostgreSQL database), signs in once
// through the console's form in headless chromium, then measures a cold load of the Fleet screen (new page, empty
// cache) until all N rows are in the table and the sort buttons answer, over loopback. Also reports GET /fleet
// alone and the console's first-load JavaScript, raw, gzip and brotli (the chart chunk loads later, on Sales).
//
// Usage: npm run build && node bench/console-fleet.js [--machines 1000] [--runs 5] [--db embedded|postgres]
//   (CHROMIUM_PATH overrides /usr/bin/chromium; BENCH_DIST another build than ./dist.)
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { performance } = require('node:perf_hooks');

const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const MACHINES = Number(arg('machines', '1000'));
const RUNS = Number(arg('runs', '5'));
const DB = arg('db', 'embedded');
const dist = path.resolve(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'));
require('reflect-metadata');
const { createApp } = require(path.join(dist, 'src/bootstrap'));
const { loadConfig } = require(path.join(dist, 'src/config/app-config'));
const { DataSource } = require('typeorm');
const { chromium } = require('playwright-core');

const TOKEN = 'bench-console-token-0123456789';

/** The JS a first visit loads: index.html's module script and every chunk it imports statically. */
function firstLoadJs(consoleDir) {
  const html = fs.readFileSync(path.join(consoleDir, 'index.html'), 'utf8');
  const seen = new Set();
  const visit = (rel) => {
    if (seen.has(rel)) return;
    seen.add(rel);
    const src = fs.readFileSync(path.join(consoleDir, rel), 'utf8');
    // Static imports only (`import{…}from"./x.js"`); `import("./x.js")` is a lazy chunk and is not followed.
    for (const m of src.matchAll(/(?:^|[;}\s])import\s*(?:[^"'()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) visit(path.join(path.dirname(rel), m[1]));
  };
  for (const m of html.matchAll(/<script[^>]+src="\.\/([^"]+\.js)"/g)) visit(m[1]);
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const rel of seen) {
    const buf = fs.readFileSync(path.join(consoleDir, rel));
    raw += buf.length;
    gzip += zlib.gzipSync(buf, { level: 9 }).length;
    brotli += zlib.brotliCompressSync(buf).length;
  }
  return { files: [...seen], raw, gzip, brotli };
}

async function seed(ds, n) {
  await ds.query(
    `INSERT INTO locations (id, namespace, name, profile, context)
     SELECT 'M-' || lpad(g::text, 5, '0'), 'sim-machine', 'Machine ' || g, '{}'::jsonb, '{}'::jsonb FROM generate_series(1, $1) g`,
    [n],
  );
  // 10 slots a machine, synced between now and 12 h ago (every freshness colour shows); slot 1 of every 7th sold out.
  await ds.query(
    `INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock, capacity, synced_at)
     SELECT 'M-' || lpad(g::text, 5, '0') || '-S' || s, 'M-' || lpad(g::text, 5, '0'), 'sim-machine', 'S' || s, 'sim-machine:S' || s,
            'Good ' || s, 300 + s * 10, CASE WHEN s = 1 AND g % 7 = 0 THEN 0 ELSE (g + s) % 12 END, 12,
            now() - ((g % 13) || ' hours')::interval
       FROM generate_series(1, $1) g, generate_series(1, 10) s`,
    [n],
  );
  // Three settled sales a machine a day over 7 days.
  await ds.query(
    `INSERT INTO sale_orders (id, namespace, location_id, total_fen, taken_at, has_taken_at, settled_at, updated_at, finalized, trade_status)
     SELECT 'B-' || g || '-' || d || '-' || k, 'sim-machine', 'M-' || lpad(g::text, 5, '0'), 350 + k * 50,
            now() - (d || ' days')::interval - (k || ' hours')::interval, true, now() - (d || ' days')::interval, now(), true, 'settled'
       FROM generate_series(1, $1) g, generate_series(0, 6) d, generate_series(1, 3) k`,
    [n],
  );
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const consoleDir = path.join(dist, 'console');
  if (!fs.existsSync(path.join(consoleDir, 'index.html'))) throw new Error(`no console build in ${consoleDir}: run npm run build`);
  const js = firstLoadJs(consoleDir);
  let dropDb = null;
  const env = { SERVICE_ENV: 'staging', SERVICE_AUTH_TOKEN: TOKEN, SERVICE_SCHEDULER: 'off', SERVICE_DATA_DIR: 'memory://', SERVICE_CONSOLE_DIR: consoleDir };
  if (DB === 'postgres') {
    const { Client } = require('pg');
    const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const name = `bench_console_${process.pid}`;
    const admin = async (sql) => {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(sql).finally(() => c.end());
    };
    await admin(`CREATE DATABASE ${name}`);
    env.DATABASE_URL = adminUrl.replace(/\/[^/]*$/, `/${name}`);
    dropDb = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const app = await createApp(loadConfig(env), { logLevel: 'warn' });
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
  try {
    await seed(app.get(DataSource), MACHINES);
    const api = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const r = await fetch(`${url}/ucp/v1/fleet`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      const body = await r.json();
      api.push(performance.now() - t0);
      if (body.machines.length !== MACHINES) throw new Error(`GET /fleet gave ${body.machines.length} machines`);
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const signIn = await context.newPage();
    await signIn.goto(`${url}/console/`);
    await signIn.getByLabel('Operator token').fill(TOKEN);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await signIn.getByRole('heading', { name: 'Fleet' }).waitFor();
    await signIn.close();
    const usable = [];
    for (let i = 0; i < RUNS; i++) {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      const t0 = performance.now();
      await page.goto(`${url}/console/#/fleet`);
      await page.locator(`tbody tr:nth-child(${MACHINES})`).waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: /Sales 7 days/ }).click({ trial: true }); // visible, enabled, receives events
      usable.push(performance.now() - t0);
      await page.close();
    }
    const ms = (x) => `${x.toFixed(0)} ms`;
    console.log(`machines: ${MACHINES} (10 slots each, 21 settled sales each over 7 days), database: ${DB}, runs: ${RUNS}`);
    console.log(`GET /ucp/v1/fleet (all ${MACHINES} rows): median ${ms(median(api))}, min ${ms(Math.min(...api))}, max ${ms(Math.max(...api))}`);
    console.log(`Fleet screen usable (cold page, no cache, loopback): median ${ms(median(usable))}, min ${ms(Math.min(...usable))}, max ${ms(Math.max(...usable))}`);
    console.log(`first-load JavaScript (${js.files.join(', ')}): ${(js.raw / 1024).toFixed(1)} KB raw, ${(js.gzip / 1024).toFixed(1)} KB gzip, ${(js.brotli / 1024).toFixed(1)} KB brotli (limit 200 KB compressed)`);
  } finally {
    await browser.close();
    await app.close();
    if (dropDb) await dropDb();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
