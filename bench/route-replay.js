#!/usr/bin/env node
// Route replay (issue 35, item 6): the service's route day against fixed routes, on one fleet and one demand stream.
// A simulated fleet (bench/replenishment-loop/world.js; platform bench/route-replay/platform.js) is driven day by day
// through the service's real HTTP API on the adjustable service clock (SERVICE_CLOCK=adjustable,
// POST /ucp/v1/admin/clock/advance). Goods reach a slot only at a visit: suppliers deliver into the warehouse (the
// service's depot, POST /replenishment/runs/{id}/arrivals), the driver loads the day's picks from it
// (GET /visits, POST /visits). Baselines (fixed 3- and 6-day routes, each slot refilled to capacity from their own
// warehouse with an order-up-to rule) are simulated in JS on the same fleet and demand. Prints the table of
// bench/README.md ("Route replay").
//
// Usage: npm run build && node bench/route-replay.js [--machines 50] [--slots 20] [--days 90] [--seed 35]
//          [--stops-per-day ceil(machines/3)] [--warmup-days 30] [--db postgres|embedded] [--fixed 3,6]
//   (BENCH_DIST=/path/to/compiled/output points at another build than ./dist; TEST_PG_URL names the server.)
'use strict';
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { buildFleet, newTally, DAY_MS, HOUR_MS } = require('./replenishment-loop/world');
const { dayIndexOf, dayStartMs } = require('./replenishment-loop/platform');
const { RoutePlatform } = require('./route-replay/platform');
const { arrivalDays, fillBoundAtStops, goodsOf, newRouteTally, beyondNeed, simulateFixedRoute, routeSummary, supplierOf, SUPPLIERS, visitsOn, WARMUP_ROUTE_DAYS } = require('./route-replay/world');
const { Diagnosis } = require('./route-replay/diagnosis');

const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const MACHINES = Number(arg('machines', '50'));
const SLOTS = Number(arg('slots', '20'));
const DAYS = Number(arg('days', '90'));
const SEED = Number(arg('seed', '35'));
const DB = arg('db', 'postgres');
/** Default: the 3-day fixed route's need (every machine once in 3 days). */
const STOPS_PER_DAY = Number(arg('stops-per-day', String(Math.ceil(MACHINES / 3))));
const WARMUP_DAYS = Number(arg('warmup-days', '30'));
const FIXED = arg('fixed', '3,6').split(',').filter(Boolean).map(Number);
/**
 * `sized` (default): each slot's capacity follows its demand, as an operator's planogram gives a fast good more
 * facings: about 8 days of its mean demand, 6 to 60 units. `random`: replenishment-loop's capacities, drawn without
 * regard to demand (fast goods in small slots need a visit every 1-3 days whatever the rule).
 */
const PLANOGRAM = arg('planogram', 'sized');
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

const TOKEN = 'bench-token-route-replay';
const skuOfSlot = (slotId) => slotId.slice(slotId.lastIndexOf('SKU-'));

function sizePlanogram(fleet, kind) {
  if (kind === 'random') return fleet;
  if (kind !== 'sized') throw new Error(`--planogram sized|random, not ${kind}`);
  for (const m of fleet) for (const s of m.slots) s.capacity = Math.min(60, Math.max(6, Math.ceil(s.mean * 8)));
  return fleet;
}

async function main() {
  const t0 = Date.now();
  const { app, base, drop } = await startService();
  try {
    const clock = app.get(Clock);
    const registry = app.get(PartnerRegistry);
    const products = await fleetProducts(registry);
    const fleet = sizePlanogram(buildFleet({ machines: MACHINES, slots: SLOTS, seed: SEED, products }), PLANOGRAM);
    const goods = goodsOf(fleet, products);
    const slotById = new Map(fleet.flatMap((m) => m.slots.map((s) => [s.id, s])));
    const http = client(base);

    // Day 0 starts at the second +08:00 midnight after the service clock's now, after the warm-up days.
    const firstDay = dayIndexOf(clock.nowMs()) + 1 + WARMUP_DAYS;
    const tally = { ...newTally(), ...newRouteTally() };
    const diag = new Diagnosis({ fleet, seed: SEED, firstDay });
    const platform = new RoutePlatform({
      fleet,
      seed: SEED,
      namespace: SIMULATED_MACHINE_NAMESPACE,
      now: () => clock.nowMs(),
      historyFrom: firstDay - WARMUP_DAYS,
      replayFrom: firstDay,
      tally,
      onLost: (slot, d, units) => diag.lost(slot, d, units),
    });
    registry.entry(SIMULATED_MACHINE_NAMESPACE).adapter = platform;
    for (const m of fleet) await http('PUT', `/ucp/v1/locations/${m.locationId}`, { name: m.name, namespace: SIMULATED_MACHINE_NAMESPACE });

    // Warm-up: today's practice (a 3-day route refilling every slot to capacity from an unlimited van, outside the
    // service), synced every morning so the service holds the censored sales and the stock snapshots.
    for (let w = -WARMUP_DAYS; w < 0; w++) {
      await moveClockTo(http, clock, dayStartMs(firstDay + w) + OPS_HOUR * HOUR_MS);
      await http('POST', '/ucp/v1/locations/sync', { sales_window_days: SYNC_WINDOW_DAYS });
      fleet.forEach((m, mi) => {
        if (visitsOn(WARMUP_ROUTE_DAYS, mi, w)) for (const s of m.slots) platform.refill(s.id);
      });
    }
    console.error(`warm-up done: ${Math.round((Date.now() - t0) / 1000)} s`);

    const open = new Map(); // run id -> lines [{ slot_id, sku, ordered_each, due }]
    const onOrderBySku = new Map();
    const boughtBySku = new Map();
    const add = (m, k, n) => m.set(k, (m.get(k) ?? 0) + n);
    const depotUnits = (depot) => new Map(depot.stock.map((s) => [skuOfSlot(s.item.id), s.quantity]));
    let depot = null;
    const checks = { overCapacityDays: 0, depotRefusals: 0, pickBeyondRoom: 0, picksOverCapacity: 0, visitsNotInRoute: 0, arrivalsCalls: 0 };

    for (let d = 0; d < DAYS; d++) {
      await moveClockTo(http, clock, dayStartMs(firstDay + d) + OPS_HOUR * HOUR_MS);
      const now = clock.nowMs();
      // 1. Sync (inventory and ledger), as the replenishment loop does.
      await http('POST', '/ucp/v1/locations/sync', { sales_window_days: SYNC_WINDOW_DAYS });
      // 2. Warehouse arrivals due today: each line on the day drawn from its good's supplier.
      for (const [id, lines] of open) {
        const due = lines.filter((l) => l.due <= now);
        if (!due.length) continue;
        await http('POST', `/ucp/v1/replenishment/runs/${id}/arrivals`, { arrived: due.map((l) => ({ slot_id: l.slot_id, quantity: l.ordered_each })) }, { 'Idempotency-Key': randomUUID() });
        checks.arrivalsCalls++;
        for (const l of due) add(onOrderBySku, l.sku, -l.ordered_each);
        const rest = lines.filter((l) => l.due > now);
        if (rest.length) open.set(id, rest);
        else open.delete(id);
      }
      // 3. Plan and order: a run of what the plan says, placed (with confirm when the fulfiller needs it).
      const run = await http('POST', '/ucp/v1/replenishment/runs');
      if (run.lines.length) {
        await place(http, run.id);
        tally.orders++;
        tally.moneyFen += run.total_cost_estimate.amount;
        const lines = run.lines.map((l) => {
          const sku = skuOfSlot(l.slot_id);
          tally.unitsBought += l.ordered_each;
          add(onOrderBySku, sku, l.ordered_each);
          add(boughtBySku, sku, l.ordered_each);
          return { slot_id: l.slot_id, sku, ordered_each: l.ordered_each, due: dayStartMs(firstDay + d + arrivalDays(SEED, run.id, sku)) + OPS_HOUR * HOUR_MS - 60_000 };
        });
        open.set(run.id, lines);
      }
      // 4. The day's route, then each machine of each stop in order: load the picks, record the visit.
      const route = await http('GET', '/ucp/v1/visits');
      const stops = route.route.length;
      tally.stops += stops;
      tally.maxStops = Math.max(tally.maxStops, stops);
      if (stops > STOPS_PER_DAY || (route.stops?.planned ?? stops) > STOPS_PER_DAY) checks.overCapacityDays++;
      if (stops >= STOPS_PER_DAY) tally.capacityDays++;
      for (const w of route.warehouse_short ?? []) tally.warehouseShortUnits += w.units;
      diag.routeDay(d, route);
      const shortSkus = new Set((route.warehouse_short ?? []).map((w) => w.sku_id));
      for (const stop of route.route) {
        for (const m of stop.machines) {
          const slots = [];
          for (const p of m.picks) {
            const room = Math.max(0, (slotById.get(p.slot_id)?.capacity ?? Infinity) - platform.stockOf(p.slot_id));
            if (p.fill_to > (slotById.get(p.slot_id)?.capacity ?? Infinity)) checks.picksOverCapacity++;
            const loaded = Math.min(p.units, room);
            if (loaded < p.units) checks.pickBeyondRoom++;
            slots.push({ slot_id: p.slot_id, loaded, ...(p.units > loaded ? { returned: p.units - loaded } : {}) });
          }
          // A stop with nothing to load still records the visit (the driver stopped): one slot, nothing loaded.
          if (!slots.length) slots.push({ slot_id: m.slots?.[0]?.slot_id ?? fleet.find((f) => f.locationId === m.location_id).slots[0].id, loaded: 0 });
          const visit = await recordVisit(http, m.location_id, slots, checks);
          let loaded = 0;
          for (const s of visit.slots) {
            if (s.loaded > 0) platform.putAway(s.slot_id, s.loaded);
            loaded += s.loaded;
            tally.unitsReturned += s.returned ?? 0;
          }
          tally.machineVisits++;
          tally.unitsLoaded += loaded;
          if (loaded === 0) tally.emptyVisits++;
          diag.visited(d, m, visit, shortSkus);
        }
      }
      // 5. The day's sales at noon; the day's close: shelves + warehouse (the van is empty again: returns went back).
      await moveClockTo(http, clock, dayStartMs(firstDay + d) + 18 * HOUR_MS);
      platform.catchUp();
      depot = await http('GET', '/ucp/v1/depot');
      const shelves = platform.closingStock[platform.closingStock.length - 1];
      tally.shelfSum += shelves;
      tally.warehouseSum += depot.totals.units;
      tally.stockSum += shelves + depot.totals.units;
      tally.stockDays++;
      if ((d + 1) % 10 === 0 || d === 0) {
        console.error(`day ${d + 1}/${DAYS}: ${Math.round((Date.now() - t0) / 1000)} s, fill ${(tally.served / tally.demand).toFixed(3)}, stops ${tally.stops} (today ${stops}), visits ${tally.machineVisits} (${tally.emptyVisits} empty), bought ${tally.unitsBought}, depot ${depot.totals.units}`);
      }
    }
    const wh = depotUnits(depot);
    tally.beyondNeed = beyondNeed({
      seed: SEED,
      goods,
      firstDay,
      days: DAYS,
      shelfOf: (id) => platform.stockOf(id),
      warehouseOf: (sku) => wh.get(sku) ?? 0,
      onOrderOf: (sku) => onOrderBySku.get(sku) ?? 0,
      boughtOf: (sku) => boughtBySku.get(sku) ?? 0,
    });
    const rows = [['ours (service route)', routeSummary(tally)]];
    const baselineDiag = new Map();
    for (const k of FIXED) {
      const bd = new Diagnosis({ fleet, seed: SEED, firstDay });
      baselineDiag.set(k, bd);
      rows.push([`fixed route every ${k} days`, routeSummary(simulateFixedRoute({ fleet, goods, seed: SEED, firstDay, days: DAYS, k, shelves0: platform.shelvesAtStart, history: platform.history, diag: (s, dd, u) => bd.lost(s, dd, u) }))]);
    }
    const ceiling = routeSummary(simulateFixedRoute({ fleet, goods, seed: SEED, firstDay, days: DAYS, k: 1, shelves0: platform.shelvesAtStart, history: platform.history, unlimited: true }));
    const budgets = [...new Set([...rows.map(([, r]) => r.stops)])].sort((a, b) => a - b);
    const bounds = fillBoundAtStops({ fleet, goods, seed: SEED, firstDay, days: DAYS, shelves0: platform.shelvesAtStart, history: platform.history, budgets });
    printTable(rows, { bounds, seconds: Math.round((Date.now() - t0) / 1000), checks, goods, ceiling });
    diag.print(baselineDiag);
  } finally {
    await app.close();
    await drop();
  }
}

async function place(http, id) {
  try {
    const placed = await http('POST', `/ucp/v1/replenishment/runs/${id}/place`, undefined, { 'Idempotency-Key': randomUUID() });
    if (placed.status !== 'placed') throw new Error(`run ${id} is ${placed.status}, not placed`);
  } catch (e) {
    if (!/confirmation_required/.test(e.message)) throw e;
    const placed = await http('POST', `/ucp/v1/replenishment/runs/${id}/place`, { confirm: true }, { 'Idempotency-Key': randomUUID() });
    if (placed.status !== 'placed') throw new Error(`run ${id} is ${placed.status}, not placed`);
  }
}

/** POST /visits; on `depot_insufficient` the loads are cut to what the depot holds and it is recorded once more. */
async function recordVisit(http, locationId, slots, checks) {
  const body = (s) => ({ location_id: locationId, slots: s, confirm: true });
  try {
    return (await http('POST', '/ucp/v1/visits', body(slots), { 'Idempotency-Key': randomUUID() })).visit;
  } catch (e) {
    if (!/depot_insufficient/.test(e.message)) throw e;
    checks.depotRefusals++;
    const depot = await http('GET', '/ucp/v1/depot');
    const left = new Map(depot.stock.map((s) => [skuOfSlot(s.item.id), s.quantity]));
    const cut = slots.map((s) => {
      const sku = skuOfSlot(s.slot_id);
      const loaded = Math.min(s.loaded, left.get(sku) ?? 0);
      left.set(sku, (left.get(sku) ?? 0) - loaded);
      const returned = (s.returned ?? 0) + s.loaded - loaded;
      return { slot_id: s.slot_id, loaded, ...(returned > 0 ? { returned } : {}) };
    });
    return (await http('POST', '/ucp/v1/visits', body(cut), { 'Idempotency-Key': randomUUID() })).visit;
  }
}

/** The goods the fleet sells: the staging products the simulated supplier carries, with its each and box prices. */
async function fleetProducts(registry) {
  const { products: supply } = await registry.simulatedSupplier.getCatalog();
  const bySku = new Map(supply.map((p) => [p.vendorSku, p]));
  return buildWorld()
    .products.filter((p) => p.priceFen !== null && bySku.has(p.vendorSku))
    .map((p) => {
      const s = bySku.get(p.vendorSku);
      return { vendorSku: p.vendorSku, title: p.title, barcode: p.barcode, priceFen: p.priceFen, eachPriceFen: s.eachPriceFen, packSize: s.packSize ?? 1, packPriceFen: s.packPriceFen ?? s.eachPriceFen };
    });
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
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json.messages ?? json).slice(0, 600)}`);
    const t = timing.get(key) ?? { calls: 0, ms: 0 };
    timing.set(key, { calls: t.calls + 1, ms: t.ms + Date.now() - started });
    return json;
  };
}

async function startService() {
  const env = {
    SERVICE_ENV: 'staging',
    SERVICE_CLOCK: 'adjustable',
    SERVICE_ROUTE_STOPS_PER_DAY: String(STOPS_PER_DAY),
    // The suppliers state 2 days and take 1-5: the replay states that spread until deliveries are measured.
    SERVICE_STATED_LEAD_TIME_SIGMA_DAYS: '1',
    SERVICE_AUTH_TOKEN: TOKEN,
    SERVICE_RATE_LIMIT: 'off',
    SERVICE_SCHEDULER: 'off',
    // No approval in the way: the bench places every run itself.
    SERVICE_GUARDS: JSON.stringify({
      killSwitch: false,
      budget: { perOrderFen: 1e12, dailyFen: 1e12, monthlyFen: 1e12 },
      priceCapPerItem: { maxMoveFen: 200, maxMovePercent: 25 },
      probationVendors: [],
      hardNoGo: { vendors: [], skus: [] },
    }),
  };
  for (const k of ['SERVICE_REVIEW_PERIOD_DAYS', 'SERVICE_LEVEL_Z', 'SERVICE_ROUTE_STOP_COST_FEN']) if (process.env[k]) env[k] = process.env[k];
  let drop = async () => {};
  if (DB === 'embedded') {
    env.SERVICE_DATA_DIR = 'memory://';
  } else {
    const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const name = `bench_route_${process.pid}`;
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

function printTable(rows, { seconds, checks, goods, ceiling, bounds }) {
  const yuan = (fen) => `¥${(fen / 100).toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 0 })}`;
  const fast = [...goods.keys()].filter((s) => supplierOf(SEED, s) === 'fast').length;
  console.log(
    `\n${MACHINES} machines × ${SLOTS} slots, ${DAYS} days after a ${WARMUP_DAYS}-day censored warm-up, seed ${SEED}, ${DB}, ${STOPS_PER_DAY} stops/day, ${PLANOGRAM} planogram; ` +
      `${goods.size} goods: ${fast} from the ${SUPPLIERS.fast.name} supplier, ${goods.size - fast} from the ${SUPPLIERS.slow.name} one; ${seconds} s\n`,
  );
  console.log('| strategy | fill rate | fill, days 7+ | lost units | stops (machine visits) | visits loading 0 | units bought | money bought | avg stock: total (shelves + warehouse) | bought beyond need (shelves + warehouse) | days at stop capacity |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [name, s] of rows) {
    const ours = name.startsWith('ours');
    console.log(
      `| ${name} | ${(100 * s.fillRate).toFixed(1)}% | ${(100 * s.fillAfterWeek).toFixed(1)}% | ${s.lost} | ${s.stops} (${s.machineVisits}) | ${s.emptyVisits} | ${s.unitsBought} | ${yuan(s.moneyFen)} | ` +
        `${Math.round(s.averageStock)} (${Math.round(s.averageShelves)} + ${Math.round(s.averageWarehouse)}) | ${s.beyondNeed.total} (${s.beyondNeed.shelf} + ${s.beyondNeed.warehouse}) | ${ours ? `${s.capacityDays} (max ${s.maxStops}/day)` : `— (max ${s.maxStops}/day)`} |`,
    );
  }
  console.log(`\nceiling (every machine every day, each slot to capacity, warehouse never short): fill ${(100 * ceiling.fillRate).toFixed(1)}%, ${ceiling.lost} units lost (the slots' capacities alone)`);
  console.log(
    `best fill a stop budget allows (each machine on its own fixed cycle, refilled to capacity, warehouse never short; greedy): ${bounds.map((b) => `${b.stops} stops ${(100 * b.fill).toFixed(1)}%`).join(', ')}`,
  );
  for (const [name, s] of rows.slice(1)) console.log(`${name}: ${s.warehouseShortUnits} units its warehouse lacked at visits`);
  const [, ours] = rows[0];
  console.log(`\nours: ${ours.unitsReturned} units returned, ${ours.warehouseShortUnits} units warehouse_short over the days; checks ${JSON.stringify(checks)}`);
  const f3 = rows.find(([n]) => n.endsWith('every 3 days'))?.[1];
  const f6 = rows.find(([n]) => n.endsWith('every 6 days'))?.[1];
  if (f3 && f6) {
    const goal = [
      [`fill ≥ 96%`, ours.fillRate >= 0.96, `${(100 * ours.fillRate).toFixed(1)}%`],
      [`stops ≤ half the 3-day route's (${f3.stops / 2})`, ours.stops <= f3.stops / 2, ours.stops],
      [`stops ≤ the 6-day route's (${f6.stops})`, ours.stops <= f6.stops, ours.stops],
      [`avg stock ≤ 0.7 × the 3-day route's (${Math.round(0.7 * f3.averageStock)})`, ours.averageStock <= 0.7 * f3.averageStock, Math.round(ours.averageStock)],
      ['nothing bought beyond need', ours.beyondNeed.total === 0, ours.beyondNeed.total],
    ];
    console.log(`\ngoal: ${goal.map(([g, ok, v]) => `${g}: ${ok ? 'met' : 'MISSED'} (${v})`).join('; ')}`);
  }
  console.log(`\ntime per route: ${[...timing].map(([k, t]) => `${k} ${t.calls}× ${(t.ms / 1000).toFixed(1)} s`).join('; ')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
