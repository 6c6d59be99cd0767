#!/usr/bin/env node
// 90-day replenishment replay (issue 25): a simulated fleet (bench/replenishment-loop/world.js) driven day by day
// through the service's real HTTP API — sync, plan, run, place, receive once each line's lead time has passed — with
// the service clock moved by POST /ucp/v1/admin/clock/advance (SERVICE_CLOCK=adjustable, staging only; never the
// machine's clock). In the same run, the same fleet and the same demand under today's rule: every visit refills
// each slot to capacity. Prints the table of bench/README.md ("Replenishment loop").
//
// Usage: npm run build && node bench/replenishment-loop.js [--machines 50] [--slots 30] [--days 90] [--seed 25]
//          [--db postgres|embedded] [--visit-every 1,2] [--review-days 1] [--z 1.65]
//   (BENCH_DIST=/path/to/compiled/output points at another build than ./dist; TEST_PG_URL names the server.)
'use strict';
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { buildFleet, leadTimeOf, newTally, simulateRefillToCapacity, summary, DAY_MS, HOUR_MS } = require('./replenishment-loop/world');
const { ReplayPlatform, dayIndexOf, dayStartMs } = require('./replenishment-loop/platform');

const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const MACHINES = Number(arg('machines', '50'));
const SLOTS = Number(arg('slots', '30'));
const DAYS = Number(arg('days', '90'));
const SEED = Number(arg('seed', '25'));
const DB = arg('db', 'postgres');
const VISITS = arg('visit-every', '1,2').split(',').map(Number);
/** The plan's review period R: the replay reviews every day. */
const REVIEW_DAYS = arg('review-days', '1');
/** The plan's safety factor z (SERVICE_LEVEL_Z). */
const Z = arg('z', '1.65');
const HISTORY_DAYS = 30;
const SYNC_WINDOW_DAYS = 21;
const OPS_HOUR = 6;

const dist = path.resolve(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'));
require('reflect-metadata');
const { createApp } = require(path.join(dist, 'src/bootstrap'));
const { loadConfig } = require(path.join(dist, 'src/config/app-config'));
const { Clock } = require(path.join(dist, 'src/common/clock'));
const { PartnerRegistry, SIMULATED_MACHINE_NAMESPACE } = require(path.join(dist, 'src/partners/registry/partner-registry'));
const { buildWorld } = require(path.join(dist, 'src/partners/simulated/mock-data'));
const { Client } = require('pg');

const TOKEN = 'bench-token-replenishment-loop';

async function main() {
  const t0 = Date.now();
  const { app, base, drop } = await startService();
  try {
    const clock = app.get(Clock);
    const registry = app.get(PartnerRegistry);
    const products = await fleetProducts(registry);
    const fleet = buildFleet({ machines: MACHINES, slots: SLOTS, seed: SEED, products });
    const http = client(base);

    // Day 0 starts at the next +08:00 midnight after the service clock's now; the ledger holds 30 days before it.
    const firstDay = dayIndexOf(clock.nowMs()) + 1;
    const tally = newTally();
    const platform = new ReplayPlatform({ fleet, seed: SEED, namespace: SIMULATED_MACHINE_NAMESPACE, now: () => clock.nowMs(), historyFrom: firstDay - HISTORY_DAYS, replayFrom: firstDay, tally });
    // The replay's fleet stands in for the staging platform: the service reads it through the adapter contract.
    registry.entry(SIMULATED_MACHINE_NAMESPACE).adapter = platform;
    for (const m of fleet) await http('PUT', `/ucp/v1/locations/${m.locationId}`, { name: m.name, namespace: SIMULATED_MACHINE_NAMESPACE });
    await moveClockTo(http, clock, dayStartMs(firstDay) + OPS_HOUR * HOUR_MS);

    const open = new Map(); // run id -> { lines: [{ slot_id, ordered_each, quantity_each, due }] }
    const onOrder = new Map(); // slot id -> units placed and not yet received (the replay's own books)
    const depotByDay = []; // units in the depot (box left-overs, deliveries past capacity) at each day's end
    tally.depotFills = 0;
    for (let d = 0; d < DAYS; d++) {
      const now = clock.nowMs();
      // 1. Lines whose lead time has passed arrive: the staff put on each slot what the service says fits; the rest
      //    goes to the depot (the service keeps it: GET /depot).
      for (const [id, run] of open) {
        const due = run.lines.filter((l) => l.due <= now);
        if (!due.length) continue;
        const received = await http('POST', `/ucp/v1/replenishment/runs/${id}/receive`, { delivered: due.map((l) => ({ slot_id: l.slot_id, quantity: l.ordered_each })) });
        for (const l of due) {
          const rec = received.delivered.filter((d) => d.slot_id === l.slot_id).pop();
          platform.putAway(l.slot_id, rec.quantity - (rec.to_depot ?? 0));
          onOrder.set(l.slot_id, onOrder.get(l.slot_id) - l.ordered_each);
        }
        run.lines = run.lines.filter((l) => l.due > now);
        if (!run.lines.length) open.delete(id);
      }
      // 2. Sync, plan, run, place.
      await http('POST', '/ucp/v1/locations/sync', { sales_window_days: SYNC_WINDOW_DAYS });
      let plan = await http('GET', '/ucp/v1/replenishment/plan');
      // What the plan serves from the depot is put on the shelves first ("fill from depot"), then the run buys the rest.
      const fills = plan.slots
        .map((s) => ({ slot_id: s.slot_id, quantity: Math.min(s.from_depot ?? 0, Math.max(0, (s.capacity ?? 0) - s.stock)) }))
        .filter((f) => f.quantity > 0);
      if (fills.length) {
        await http('POST', '/ucp/v1/depot/fill', { fills, confirm: true }, { 'Idempotency-Key': randomUUID() });
        for (const f of fills) platform.putAway(f.slot_id, f.quantity);
        tally.depotFills += fills.reduce((t, f) => t + f.quantity, 0);
        plan = await http('GET', '/ucp/v1/replenishment/plan');
      }
      const bySlot = new Map(plan.slots.map((s) => [s.slot_id, s]));
      const run = await http('POST', '/ucp/v1/replenishment/runs');
      if (run.lines.length) {
        const placed = await http('POST', `/ucp/v1/replenishment/runs/${run.id}/place`, undefined, { 'Idempotency-Key': randomUUID() });
        if (placed.status !== 'placed') throw new Error(`run ${run.id} is ${placed.status}, not placed`);
        tally.orders++;
        tally.moneyFen += run.total_cost_estimate.amount;
        const lines = [];
        for (const l of run.lines) {
          const s = bySlot.get(l.slot_id);
          // Ordered twice: more than the slot's target minus its stock minus what the replay knows is on its way.
          const room = Math.max(0, s.target - s.stock - (onOrder.get(l.slot_id) ?? 0));
          tally.doubleOrdered += Math.max(0, l.quantity_each - room);
          tally.unitsBought += l.ordered_each;
          onOrder.set(l.slot_id, (onOrder.get(l.slot_id) ?? 0) + l.ordered_each);
          const sku = l.slot_id.slice(l.slot_id.lastIndexOf('SKU-'));
          lines.push({ slot_id: l.slot_id, sku, ordered_each: l.ordered_each, due: now + leadTimeOf(SEED, run.id, sku) * DAY_MS });
        }
        open.set(run.id, { lines });
      }
      // 3. The day's sales happen at noon; the next ops round is tomorrow at 06:00.
      await moveClockTo(http, clock, now + DAY_MS);
      platform.catchUp();
      depotByDay.push((await http('GET', '/ucp/v1/depot')).totals.units);
      if ((d + 1) % 10 === 0) console.error(`day ${d + 1}/${DAYS}: ${Math.round((Date.now() - t0) / 1000)} s, fill ${(tally.served / tally.demand).toFixed(3)}, orders ${tally.orders}, lead time ${JSON.stringify(plan.lead_times.map((l) => [l.days, l.sigma_days, l.samples]))}`);
    }
    tally.stockDays = platform.closingStock.length;
    tally.stockSum = platform.closingStock.reduce((a, b, i) => a + b + depotByDay[i], 0);
    const rows = [['plan (inventory position)', summary(tally)]];
    for (const v of VISITS) rows.push([`refill to capacity, visit every ${v} day(s)`, summary(simulateRefillToCapacity({ fleet, seed: SEED, firstDay, days: DAYS, visitEveryDays: v }))]);
    const depotAvg = depotByDay.reduce((a, b) => a + b, 0) / Math.max(1, depotByDay.length);
    printTable(rows, { seconds: Math.round((Date.now() - t0) / 1000), depotEnd: depotByDay[depotByDay.length - 1], depotAvg, depotFills: tally.depotFills });
  } finally {
    await app.close();
    await drop();
  }
}

/** The goods the fleet sells: the staging products the simulated supplier carries, with its each price. */
async function fleetProducts(registry) {
  const { products: supply } = await registry.simulatedSupplier.getCatalog();
  const each = new Map(supply.map((p) => [p.vendorSku, p.eachPriceFen]));
  return buildWorld()
    .products.filter((p) => p.priceFen !== null && each.has(p.vendorSku))
    .map((p) => ({ vendorSku: p.vendorSku, title: p.title, barcode: p.barcode, priceFen: p.priceFen, eachPriceFen: each.get(p.vendorSku) }));
}

async function moveClockTo(http, clock, targetMs) {
  const seconds = Math.ceil((targetMs - clock.nowMs()) / 1000);
  if (seconds > 0) await http('POST', '/ucp/v1/admin/clock/advance', { seconds });
}

/** Time spent per route (method and path without ids), printed at the end. */
const timing = new Map();

function client(base) {
  return async (method, url, body, headers = {}) => {
    const started = Date.now();
    const key = `${method} ${url.replace(/\/runs\/[^/]+/, '/runs/{id}').replace(/\/locations\/bench-m-\d+/, '/locations/{id}').replace(/\?.*$/, '')}`;
    const res = await fetch(base + url, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json.messages ?? json).slice(0, 400)}`);
    const t = timing.get(key) ?? { calls: 0, ms: 0 };
    timing.set(key, { calls: t.calls + 1, ms: t.ms + Date.now() - started });
    return json;
  };
}

async function startService() {
  const env = {
    SERVICE_ENV: 'staging',
    SERVICE_CLOCK: 'adjustable',
    SERVICE_REVIEW_PERIOD_DAYS: REVIEW_DAYS,
    SERVICE_LEVEL_Z: Z,
    // The suppliers state 2 days and take 1-5: the replay states that spread until deliveries are measured.
    SERVICE_STATED_LEAD_TIME_SIGMA_DAYS: '1',
    SERVICE_AUTH_TOKEN: TOKEN,
    SERVICE_RATE_LIMIT: 'off',
    SERVICE_SCHEDULER: 'off',
    SERVICE_GUARDS: JSON.stringify({
      killSwitch: false,
      budget: { perOrderFen: 1e12, dailyFen: 1e12, monthlyFen: 1e12 },
      priceCapPerItem: { maxMoveFen: 200, maxMovePercent: 25 },
      probationVendors: [],
      hardNoGo: { vendors: [], skus: [] },
    }),
  };
  let drop = async () => {};
  if (DB === 'embedded') {
    env.SERVICE_DATA_DIR = 'memory://';
  } else {
    const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const name = `bench_loop_${process.pid}`;
    const admin = async (sql) => {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(sql);
      } finally {
        await c.end();
      }
    };
    await admin(`CREATE DATABASE ${name}`);
    env.DATABASE_URL = adminUrl.replace(/\/[^/]*$/, `/${name}`);
    drop = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const app = await createApp(loadConfig(env), { logLevel: 'warn' });
  await app.listen(0, '127.0.0.1');
  return { app, base: `http://127.0.0.1:${app.getHttpServer().address().port}`, drop };
}

function printTable(rows, { seconds, depotEnd, depotAvg, depotFills }) {
  const yuan = (fen) => `¥${(fen / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  console.log(`\n${MACHINES} machines × ${SLOTS} slots, ${DAYS} days, seed ${SEED}, ${DB}, review every ${REVIEW_DAYS} day(s), z ${Z}; ${seconds} s; depot at the end: ${depotEnd} units, on average ${Math.round(depotAvg)}; ${depotFills} units filled from the depot\n`);
  console.log('| strategy | fill rate | stocked-out slot-days | units bought | money bought | avg stock (shelves + depot) | orders placed | units ordered while on order |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const [name, s] of rows) {
    console.log(`| ${name} | ${(100 * s.fillRate).toFixed(1)}% | ${s.stockoutSlotDays} (${(100 * s.stockoutShare).toFixed(1)}%) | ${s.unitsBought} | ${yuan(s.moneyFen)} | ${Math.round(s.averageStock)} | ${s.orders} | ${s.doubleOrdered} |`);
  }
  console.log(`\ntime per route: ${[...timing].map(([k, t]) => `${k} ${t.calls}× ${(t.ms / 1000).toFixed(1)} s`).join('; ')}`);
  const plan = rows[0][1];
  for (const [name, s] of rows.slice(1)) {
    console.log(`\nplan vs ${name}: average stock ${(100 * (1 - plan.averageStock / s.averageStock)).toFixed(1)}% lower, fill rate ${(100 * plan.fillRate).toFixed(1)}% vs ${(100 * s.fillRate).toFixed(1)}%`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
