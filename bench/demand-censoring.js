/**
 * Demand from a censored history (issue 35): the plan's rate against a known demand, old rule and new rule.
 *
 *   npx tsc -p tsconfig.build.json --outDir /tmp/wt-demand-dist
 *   BENCH_DIST=/tmp/wt-demand-dist node bench/demand-censoring.js [--seeds 1,2] [--machines 24]
 *
 * Simulates machines × 14 slots (8 fast Poisson, 6 slow intermittent: rare purchase occasions of 1+ units) over a
 * 15-day warm-up and the 30-day window, with capacity, a route visit every 3 to 7 days that refills to capacity
 * (recorded as a delivery) and stockouts (a sold-out slot sells nothing). Each machine is synced once a day at its
 * own hour. From the simulated ledger and readings it builds the per-slot aggregates the repository would, and
 * prints, per class, Σ estimated / Σ true rate and the mean absolute error (units/day) of the rate the plan uses
 * (the stated 1/day when too little history), for:
 *  - old: the rule before issue 35 (first seen = first sale or reading; only no-sale days read at 0 stocked out)
 *    with the readings the replay had (none of a window day: only the plan's of today);
 *  - new, replay: the new rule with a reading at every daily sync and delivery;
 *  - new, backfilled: the new rule with no reading in the window (sales backfilled from the ledger).
 * Deterministic: the seed alone decides the demand.
 */
'use strict';
const path = require('path');

const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const dist = path.resolve(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'));
const { aggregateFromSeries, estimateDemand } = require(path.join(dist, 'src/forecasting/demand.rules'));

const SEEDS = arg('seeds', '1,2').split(',').map(Number);
const MACHINES = Number(arg('machines', '24'));
const WARMUP = 15;
const WINDOW = 30;
const SETTINGS = { minHistoryDays: 7, fallbackRatePerDay: 1 };

function mulberry32(a) {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function poisson(rnd, lambda) {
  const l = Math.exp(-lambda);
  let k = 0;
  for (let p = rnd(); p > l; p *= rnd()) k++;
  return k;
}
const between = (rnd, lo, hi) => lo + (hi - lo) * rnd();
const intBetween = (rnd, lo, hi) => Math.floor(between(rnd, lo, hi + 1));

/** One slot's known demand: a daily draw and its true mean. */
function slotKind(rnd, i, visitEvery) {
  if (i < 8) {
    const lambda = between(rnd, 1.5, 8);
    // Capacity for 0.7 to 1.8 route intervals of demand: some slots run out before the next visit.
    const capacity = Math.max(4, Math.round(lambda * visitEvery * between(rnd, 0.7, 1.8)));
    return { cls: 'fast', rate: lambda, capacity, draw: (r) => poisson(r, lambda) };
  }
  const p = between(rnd, 0.04, 0.3);
  const extra = between(rnd, 0.2, 1.5); // a purchase occasion buys 1 + Poisson(extra) units
  return { cls: 'slow', rate: p * (1 + extra), capacity: intBetween(rnd, 4, 10), draw: (r) => (r() < p ? 1 + poisson(r, extra) : 0) };
}

/** One machine over warm-up + window: per slot, daily sales, the day's lowest reading (sync, delivery), truth. */
function simulateMachine(rnd) {
  const visitEvery = intBetween(rnd, 3, 7);
  const slots = Array.from({ length: 14 }, (_, i) => slotKind(rnd, i, visitEvery));
  const phase = intBetween(rnd, 0, visitEvery - 1);
  const syncHour = between(rnd, 0, 24);
  const days = WARMUP + WINDOW;
  return slots.map((s) => {
    let stock = intBetween(rnd, 0, s.capacity);
    const sales = [];
    const lowest = [];
    let outDays = 0;
    for (let d = 0; d < days; d++) {
      const arrivals = Array.from({ length: s.draw(rnd) }, () => between(rnd, 0, 24)).sort((a, b) => a - b);
      const visit = (d + phase) % visitEvery === 0 ? 10 : null; // the route's delivery at 10:00
      const events = [...arrivals.map((t) => ({ t, kind: 'buy' })), { t: syncHour, kind: 'sync' }];
      if (visit !== null) events.push({ t: visit, kind: 'visit' });
      events.sort((a, b) => a.t - b.t);
      let sold = 0;
      let low = Infinity;
      let wasOut = stock === 0;
      for (const e of events) {
        if (e.kind === 'buy' && stock > 0) {
          stock--;
          sold++;
          if (stock === 0) wasOut = true;
        } else if (e.kind === 'sync') low = Math.min(low, stock);
        else if (e.kind === 'visit') {
          low = Math.min(low, stock); // a delivery records the stock it found
          stock = s.capacity;
        }
      }
      if (wasOut && d >= WARMUP) outDays++;
      sales.push(sold);
      lowest.push(low);
    }
    return { ...s, sales: sales.slice(WARMUP), lowest: lowest.slice(WARMUP), stockNow: stock, hadSoldOut: outDays > 0 };
  });
}

/** The rule before issue 35 (kept here to compare): first seen = first sale or reading; only no-sale days read at 0. */
function oldRule(a) {
  const seen = [a.firstSaleDay, a.firstSnapshotDay].filter((d) => d !== null);
  if (seen.length === 0) return SETTINGS.fallbackRatePerDay;
  const firstSeen = Math.min(...seen);
  const observed = a.windowDays - firstSeen;
  const noSaleEmpty = a.snapshotEmptyDays - a.snapshotEmptyDaysWithSales;
  let out = noSaleEmpty;
  if (a.stockNow <= 0) out = noSaleEmpty - a.snapshotEmptyDaysAfterLastSale + Math.max(0, a.windowDays - (a.lastSaleDay === null ? firstSeen : a.lastSaleDay + 1));
  const n = observed - Math.min(observed, Math.max(0, out));
  return n < SETTINGS.minHistoryDays ? SETTINGS.fallbackRatePerDay : a.units / n;
}

function estimates(machine) {
  const firstSale = (s) => s.sales.findIndex((x) => x > 0);
  const starts = machine.map(firstSale).filter((d) => d >= 0);
  const machineFirstSaleDay = starts.length ? Math.min(...starts) : null;
  return machine.map((s) => {
    const read = s.lowest.map((l) => l !== Infinity);
    const empty = s.lowest.map((l) => l <= 0);
    const replay = aggregateFromSeries({ sales: s.sales, snapshotEmpty: empty, seen: read, stockNow: s.stockNow, machineFirstSaleDay, machineFirstSnapshotDay: read.indexOf(true) });
    const backfilled = aggregateFromSeries({ sales: s.sales, stockNow: s.stockNow, machineFirstSaleDay, machineFirstSnapshotDay: null });
    // The replay's old readings: none of a window day.
    const oldAgg = { ...aggregateFromSeries({ sales: s.sales, stockNow: s.stockNow }), snapshotEmptyDaysWithSales: 0 };
    return {
      s,
      old: oldRule(oldAgg),
      replay: estimateDemand(replay, SETTINGS).ratePerDay,
      backfilled: estimateDemand(backfilled, SETTINGS).ratePerDay,
    };
  });
}

const CLASSES = [
  ['fast', (s) => s.cls === 'fast'],
  ['slow intermittent', (s) => s.cls === 'slow'],
  ['had sold out', (s) => s.hadSoldOut],
  ['all', () => true],
];
const RULES = ['old', 'replay', 'backfilled'];

const fmt = (x, d) => x.toFixed(d);
console.log('| seed | class | slots | true rate (mean/day) | old: ratio / MAE | new, replay: ratio / MAE | new, backfilled: ratio / MAE |');
console.log('|---|---|---|---|---|---|---|');
for (const seed of SEEDS) {
  const rnd = mulberry32(seed);
  const rows = [];
  for (let m = 0; m < MACHINES; m++) rows.push(...estimates(simulateMachine(rnd)));
  for (const [name, inClass] of CLASSES) {
    const part = rows.filter((r) => inClass(r.s));
    const truth = part.reduce((t, r) => t + r.s.rate, 0);
    const cells = RULES.map((rule) => {
      const est = part.reduce((t, r) => t + r[rule], 0);
      const mae = part.reduce((t, r) => t + Math.abs(r[rule] - r.s.rate), 0) / part.length;
      return `${fmt(est / truth, 2)} / ${fmt(mae, 3)}`;
    });
    console.log(`| ${seed} | ${name} | ${part.length} | ${fmt(truth / part.length, 2)} | ${cells.join(' | ')} |`);
  }
}
