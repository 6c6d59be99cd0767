#!/usr/bin/env node
// Replenishment scale check (issue 6): a plan over 1,000 machines × 60 slots with 90 days of sales.
// The data is generated server-side (generate_series) in a fresh PostgreSQL database: 60,000 slots, 1.8 M settled
// sale orders of 3 lines each (5.4 M lines, ~2% refunded), 30 days of stock snapshots. Then it times
//   - PlanService.compute() in process, with the per-window demand aggregates rebuilt (SQL over the sales of the
//     window, per slot per day, then per slot) and with them cached (the sales of past days did not change),
//   - GET /ucp/v1/replenishment/plan over HTTP (the full 60,000-slot answer),
//   - POST /ucp/v1/replenishment/runs (a run built from the plan),
// and samples the process RSS every 20 ms: the plan holds one row per slot, never the sales.
// The database is dropped at the end.
//
// Usage: npm run build && node bench/plan-bench.js [--machines 1000] [--slots 60] [--days 90] [--keep] [--generate-only] [--db-url URL]
//   (BENCH_DIST=/path/to/compiled/output points at another build than ./dist; TEST_PG_URL names the server.)
const http = require('node:http');
const path = require('node:path');

const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const MACHINES = Number(arg('machines', '1000'));
const SLOTS = Number(arg('slots', '60'));
const DAYS = Number(arg('days', '90'));
/** Keep the generated database (for EXPLAIN sessions); default: dropped at the end. */
const KEEP = process.argv.includes('--keep');
const ONLY_GENERATE = process.argv.includes('--generate-only');
/** Reuse a database generated earlier with --keep (skips generation; never dropped). */
const REUSE_URL = arg('db-url', null);
const dist = path.resolve(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'));
require('reflect-metadata');
const { createApp } = require(path.join(dist, 'src/bootstrap'));
const { loadConfig } = require(path.join(dist, 'src/config/app-config'));
const { PlanService } = require(path.join(dist, 'src/replenishment/plan/plan.service'));
const { PartnerRegistry } = require(path.join(dist, 'src/partners/registry/partner-registry'));
const { DataSource } = require('typeorm');
const { Client } = require('pg');

const TOKEN = 'bench-token-plan';
const mb = (b) => Math.round(b / 1048576);

function sampler() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage().rss);
  };
}

async function timed(label, fn) {
  global.gc?.();
  const base = process.memoryUsage().rss;
  const stop = sampler();
  const t0 = process.hrtime.bigint();
  const out = await fn();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const peak = stop();
  console.log(`${label.padEnd(44)} ${(ms / 1000).toFixed(2).padStart(7)} s   RSS before ${mb(base)} MB, peak ${mb(peak)} MB (+${mb(peak - base)} MB)`);
  return out;
}

function request(port, method, p) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: p, headers: { Authorization: `Bearer ${TOKEN}`, 'User-Agent': 'plan-bench/1.0' } }, (res) => {
      let bytes = 0;
      const chunks = [];
      res.on('data', (c) => {
        bytes += c.length;
        chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode, bytes, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function main() {
  const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `bench_plan_${process.pid}`;
  const admin = async (sql) => {
    const c = new Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  if (!REUSE_URL) await admin(`CREATE DATABASE ${name}`);
  const dbUrl = REUSE_URL ?? adminUrl.replace(/\/[^/]*$/, `/${name}`);
  let app;
  try {
    const env = {
      SERVICE_ENV: 'staging',
      SERVICE_AUTH_TOKEN: TOKEN,
      SERVICE_RATE_LIMIT: 'off', // benchmarks measure the service, not the limiter
      SERVICE_SCHEDULER: 'off',
      DATABASE_URL: dbUrl,
      SERVICE_GUARDS: JSON.stringify({
        killSwitch: false,
        budget: { perOrderFen: 1e12, dailyFen: 1e12, monthlyFen: 1e12 },
        priceCapPerItem: { maxMoveFen: 200, maxMovePercent: 25 },
        probationVendors: [],
        hardNoGo: { vendors: [], skus: [] },
      }),
    };
    app = await createApp(loadConfig(env), { logLevel: 'warn' });
    await app.listen(0, '127.0.0.1');
    const port = app.getHttpServer().address().port;
    const ds = app.get(DataSource);
    const { products } = await app.get(PartnerRegistry).simulatedSupplier.getCatalog();
    const skus = products.slice(0, SLOTS).map((p) => p.vendorSku);
    if (skus.length < SLOTS) throw new Error(`the simulated supplier has ${skus.length} products; --slots must be at most that`);

    if (!REUSE_URL) {
    console.log(`generating ${MACHINES} machines × ${SLOTS} slots, ${DAYS} days of sales (server-side) ...`);
    const g0 = Date.now();
    await ds.query(`INSERT INTO locations (id, namespace, name) SELECT 'M' || lpad(m::text, 5, '0'), 'sim-machine', 'machine ' || m FROM generate_series(1, $1) m`, [MACHINES]);
    await ds.query(
      `INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock, capacity)
       SELECT 'M' || lpad(m::text, 5, '0') || '-' || k.sku, 'M' || lpad(m::text, 5, '0'), 'sim-machine', k.sku, 'sim-machine:' || k.sku,
              'product ' || k.sku, 300 + (k.i * 7) % 500,
              CASE WHEN (m * 31 + k.i) % 20 = 0 THEN 0 ELSE (m * 7 + k.i * 13) % 30 END, 30 + (k.i % 3) * 5
       FROM generate_series(1, $1) m CROSS JOIN unnest($2::text[]) WITH ORDINALITY AS k(sku, i)`,
      [MACHINES, skus],
    );
    // One basket per machine, day and group of three slots: 3 lines each. Quantity 1..3; ~2% refunded; ~1% unsettled.
    const groups = Math.ceil(SLOTS / 3);
    await ds.query(
      `INSERT INTO sale_orders (id, namespace, location_id, total_fen, taken_at, has_taken_at, trade_status)
       SELECT 'B' || m || '-' || d || '-' || g, 'sim-machine', 'M' || lpad(m::text, 5, '0'), 900,
              date_trunc('day', now()) - make_interval(days => d) + make_interval(mins => (g * 37 + m) % 1380),
              true, CASE WHEN (m + d + g) % 100 = 0 THEN 'in_progress' ELSE 'settled' END
       FROM generate_series(1, $1) m, generate_series(1, $2) d, generate_series(0, $3 - 1) g`,
      [MACHINES, DAYS, groups],
    );
    await ds.query(
      `INSERT INTO sale_lines (order_id, line_no, vendor_sku, sku_id, slot_id, quantity, price_fen, status)
       SELECT 'B' || m || '-' || d || '-' || k.g, k.j, k.sku, 'sim-machine:' || k.sku, 'M' || lpad(m::text, 5, '0') || '-' || k.sku,
              1 + (m * 7 + d * 3 + k.g * 5 + k.j) % 3, 300, CASE WHEN (m + d * 7 + k.g + k.j) % 50 = 0 THEN 'refunded' ELSE 'paid' END
       FROM generate_series(1, $1) m, generate_series(1, $2) d,
            (SELECT g, j, ($4::text[])[g * 3 + j] AS sku FROM generate_series(0, $3 - 1) g, generate_series(1, 3) j) k
       WHERE k.sku IS NOT NULL`,
      [MACHINES, DAYS, groups, skus],
    );
    await ds.query(
      `INSERT INTO slot_stock_days (slot_id, day, min_stock)
       SELECT s.id, ((now() + interval '8 hours') AT TIME ZONE 'UTC')::date - d, CASE WHEN (hashtext(s.id) + d) % 33 = 0 THEN 0 ELSE 5 END
       FROM slots s, generate_series(1, 30) d`,
    );
    // History was ingested when it happened (the sync reads the ledger every 5 minutes), not just now.
    await ds.query(`UPDATE sale_orders SET ingested_at = taken_at + interval '10 minutes'`);
    await ds.query(`UPDATE slot_stock_days SET recorded_at = (day::timestamp AT TIME ZONE 'UTC') + interval '15 hours'`);
    await ds.query('VACUUM ANALYZE');
    const counts = (await ds.query(`SELECT (SELECT count(*) FROM slots) s, (SELECT count(*) FROM sale_orders) o, (SELECT count(*) FROM sale_lines) l, (SELECT count(*) FROM slot_stock_days) sd`))[0];
    console.log(`generated in ${((Date.now() - g0) / 1000).toFixed(1)} s: ${counts.s} slots, ${counts.o} orders, ${counts.l} sale lines, ${counts.sd} snapshots`);
    } else {
      await ds.query(`DELETE FROM replenishment_runs`);
      console.log(`reusing ${REUSE_URL}`);
    }

    if (ONLY_GENERATE) return;
    const plans = app.get(PlanService);
    await ds.query('DELETE FROM demand_cache_runs');
    const plan = await timed('PlanService.compute (aggregates rebuilt)', () => plans.compute());
    console.log(`  ${plan.slots.length} slots planned, ${plan.totals.slots_to_order} to order, ${plan.slots.filter((s) => s.demand.measured).length} measured`);
    await timed('PlanService.compute (aggregates cached)', () => plans.compute());
    await ds.query('DELETE FROM demand_cache_runs');
    await timed('PlanService.compute (rebuilt again)', () => plans.compute());
    await timed('PlanService.compute (cached again)', () => plans.compute());
    const res = await timed('GET /replenishment/plan (HTTP, full answer)', () => request(port, 'GET', '/ucp/v1/replenishment/plan'));
    console.log(`  HTTP ${res.status}, ${mb(res.bytes)} MB of JSON`);
    const one = await timed('GET /replenishment/plan?location=M00001', () => request(port, 'GET', '/ucp/v1/replenishment/plan?location=M00001'));
    console.log(`  HTTP ${one.status}, ${JSON.parse(one.body).slots.length} slots`);
    const run = await timed('POST /replenishment/runs (HTTP)', () => request(port, 'POST', '/ucp/v1/replenishment/runs'));
    console.log(`  HTTP ${run.status}, ${JSON.parse(run.body).lines.length} lines`);
    console.log(`process max RSS over the whole bench (data generation included): ${mb(process.resourceUsage().maxRSS * 1024)} MB`);
  } finally {
    if (app) await app.close();
    if (KEEP || REUSE_URL) console.log(`database kept: ${dbUrl}`);
    else {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      console.log(`database ${name} dropped`);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
