// The route replay's world (issue 35): what bench/replenishment-loop/world.js does not have. Pure and seeded, no
// service, no I/O: two suppliers with their own lead-time distributions (each good bought from one of them), the fixed
// visit days of a k-day route, today's practice during the warm-up (a 3-day route refilling to capacity from an
// unlimited van), the fixed-route baselines with their own warehouse, and the metrics every strategy is measured by.
'use strict';

const { prng, hashOf, demandOf } = require('../replenishment-loop/world');

/**
 * The suppliers. Staging has one supply namespace (`sim-supply`, the simulated supplier): every run the service places
 * goes to it. The world assigns each good to one of these two suppliers and draws each run line's arrival day at the
 * warehouse from that good's supplier: the service sees one supplier whose deliveries mix both distributions.
 */
const SUPPLIERS = {
  fast: { name: 'fast (1-2 days)', lead: [[1, 0.6], [2, 0.4]] },
  slow: { name: 'slow (2-5 days)', lead: [[2, 0.2], [3, 0.35], [4, 0.3], [5, 0.15]] },
};
const maxLead = (supplier) => Math.max(...SUPPLIERS[supplier].lead.map(([d]) => d));
const meanLead = (supplier) => SUPPLIERS[supplier].lead.reduce((t, [d, p]) => t + d * p, 0);

/** The supplier of a good: half the goods each, by a seeded hash of the good. */
function supplierOf(seed, vendorSku) {
  return prng(hashOf(seed, 'supplier', vendorSku))() < 0.5 ? 'fast' : 'slow';
}

/** Days from order to arrival at the warehouse of one good on one order (deterministic per seed, order and good). */
function arrivalDays(seed, orderRef, vendorSku) {
  const u = prng(hashOf(seed, 'arrival', orderRef, vendorSku))();
  const dist = SUPPLIERS[supplierOf(seed, vendorSku)].lead;
  let acc = 0;
  for (const [days, p] of dist) {
    acc += p;
    if (u < acc) return days;
  }
  return dist[dist.length - 1][0];
}

/** A k-day fixed route: machine `mi` is visited on the days d with (d - mi) % k == 0 (machines spread evenly). */
const visitsOn = (k, mi, day) => (((day - mi) % k) + k) % k === 0;

/**
 * The shelves at the start of the warm-up: every slot full. The warm-up (days -warmup..-1) is today's practice: the
 * 3-day route refills every slot to capacity from an unlimited van, the shelves sell what they hold (a sold-out slot
 * sells nothing). The platform and every baseline start day 0 from the shelves it leaves.
 */
const WARMUP_ROUTE_DAYS = 3;

/** Per good: its slots, pack size and each/pack price. */
function goodsOf(fleet, products) {
  const bySku = new Map(products.map((p) => [p.vendorSku, p]));
  const goods = new Map();
  for (const m of fleet) {
    for (const s of m.slots) {
      let g = goods.get(s.vendorSku);
      if (!g) {
        const p = bySku.get(s.vendorSku);
        g = { vendorSku: s.vendorSku, packSize: p.packSize ?? 1, packPriceFen: p.packPriceFen ?? p.eachPriceFen, eachPriceFen: p.eachPriceFen, slots: [] };
        goods.set(s.vendorSku, g);
      }
      g.slots.push(s);
    }
  }
  return goods;
}

/** What a strategy adds up over the measured days (day 0 .. days-1). */
function newRouteTally() {
  return {
    demand: 0,
    served: 0,
    lost: 0,
    stops: 0,
    machineVisits: 0,
    emptyVisits: 0,
    unitsLoaded: 0,
    unitsReturned: 0,
    unitsBought: 0,
    moneyFen: 0,
    orders: 0,
    stockSum: 0,
    shelfSum: 0,
    warehouseSum: 0,
    stockDays: 0,
    capacityDays: 0,
    maxStops: 0,
    overCapacityDays: 0,
    warehouseShortUnits: 0,
    servedAfterWarmStart: 0,
    demandAfterWarmStart: 0,
    beyondNeed: null,
  };
}

/**
 * Units bought beyond need, at the end of the replay. need(slot) = the slot's demand over the 7 days after the last
 * replay day (the same demand stream, days `days`..`days`+6). Per good:
 *   shelf excess     = Σ over its slots of max(0, shelf − need(slot))            (a shelf only serves its own slot)
 *   warehouse excess = max(0, warehouse + on order − Σ over its slots of max(0, need(slot) − shelf))
 *   beyond need      = min(units of the good bought during the replay, shelf excess + warehouse excess)
 * (capped by what was bought: the units on the shelves at day 0 were not bought by the strategy).
 */
function beyondNeed({ seed, goods, firstDay, days, shelfOf, warehouseOf, onOrderOf, boughtOf }) {
  let shelf = 0;
  let warehouse = 0;
  let total = 0;
  for (const g of goods.values()) {
    let sEx = 0;
    let gap = 0;
    for (const s of g.slots) {
      let need = 0;
      for (let d = days; d < days + 7; d++) need += demandOf(seed, s, firstDay + d);
      const st = shelfOf(s.id);
      sEx += Math.max(0, st - need);
      gap += Math.max(0, need - st);
    }
    const wEx = Math.max(0, warehouseOf(g.vendorSku) + onOrderOf(g.vendorSku) - gap);
    const bought = boughtOf(g.vendorSku);
    const b = Math.min(bought, sEx + wEx);
    total += b;
    // Split in proportion when the cap applies.
    const k = sEx + wEx > 0 ? b / (sEx + wEx) : 0;
    shelf += sEx * k;
    warehouse += wEx * k;
  }
  return { total: Math.round(total), shelf: Math.round(shelf), warehouse: Math.round(warehouse) };
}

/**
 * (`unlimited`: the warehouse always holds what a visit needs, nothing is ordered: the fill a k-day route's
 * capacities allow, the ceiling of any strategy visiting that often.)
 * A fixed k-day route with its own warehouse (the baseline; no service). Each morning: the warehouse receives what is
 * due, orders per good up to S = ceil(rate × (longest lead time of its supplier + k)) (rate = the good's sales over
 * the fleet in the last 28 days, / 28; inventory position = warehouse + on order), rounded up to whole boxes; then
 * the machines of the day (in fleet order) get every slot refilled to capacity from the warehouse (what it holds).
 * Sales at noon. `shelves0`: slot id → stock at day 0; `history`: slot id → units sold per warm-up day (oldest first).
 */
function simulateFixedRoute({ fleet, goods, seed, firstDay, days, k, shelves0, history, diag, unlimited = false }) {
  const t = newRouteTally();
  const stock = new Map(shelves0);
  const wh = new Map([...goods.keys()].map((s) => [s, 0]));
  const onOrder = new Map([...goods.keys()].map((s) => [s, 0]));
  const bought = new Map([...goods.keys()].map((s) => [s, 0]));
  const arrivals = []; // { day, sku, units }
  // Daily sales per good (the warm-up's then the strategy's own), for the rate.
  const sales = new Map([...goods.keys()].map((s) => [s, []]));
  const warmDays = history.size ? history.values().next().value.length : 0;
  for (let i = 0; i < warmDays; i++) {
    for (const g of goods.values()) sales.get(g.vendorSku).push(g.slots.reduce((a, s) => a + (history.get(s.id)?.[i] ?? 0), 0));
  }
  for (let d = 0; d < days; d++) {
    const day = firstDay + d;
    for (let i = arrivals.length - 1; i >= 0; i--) {
      const a = arrivals[i];
      if (a.day > d) continue;
      wh.set(a.sku, wh.get(a.sku) + a.units);
      onOrder.set(a.sku, onOrder.get(a.sku) - a.units);
      arrivals.splice(i, 1);
    }
    let ordered = false;
    for (const g of unlimited ? [] : goods.values()) {
      const hist = sales.get(g.vendorSku).slice(-28);
      const rate = hist.length ? hist.reduce((a, b) => a + b, 0) / hist.length : 0;
      const S = Math.ceil(rate * (maxLead(supplierOf(seed, g.vendorSku)) + k));
      const ip = wh.get(g.vendorSku) + onOrder.get(g.vendorSku);
      if (ip >= S) continue;
      const boxes = Math.ceil((S - ip) / g.packSize);
      const units = boxes * g.packSize;
      ordered = true;
      onOrder.set(g.vendorSku, onOrder.get(g.vendorSku) + units);
      bought.set(g.vendorSku, bought.get(g.vendorSku) + units);
      t.unitsBought += units;
      t.moneyFen += boxes * g.packPriceFen;
      arrivals.push({ day: d + arrivalDays(seed, `fixed${k}-${d}`, g.vendorSku), sku: g.vendorSku, units });
    }
    if (ordered) t.orders++;
    let stopsToday = 0;
    fleet.forEach((m, mi) => {
      if (!visitsOn(k, mi, d)) return;
      stopsToday++;
      let loaded = 0;
      for (const s of m.slots) {
        const want = s.capacity - stock.get(s.id);
        const have = unlimited ? want : wh.get(s.vendorSku);
        const put = Math.min(want, have);
        if (want > have) t.warehouseShortUnits += want - have;
        if (!unlimited) wh.set(s.vendorSku, have - put);
        else t.unitsBought += put;
        stock.set(s.id, stock.get(s.id) + put);
        loaded += put;
      }
      t.machineVisits++;
      t.unitsLoaded += loaded;
      if (loaded === 0) t.emptyVisits++;
    });
    t.stops += stopsToday;
    t.maxStops = Math.max(t.maxStops, stopsToday);
    const soldToday = new Map([...goods.keys()].map((s) => [s, 0]));
    let shelves = 0;
    for (const m of fleet) {
      for (const s of m.slots) {
        const want = demandOf(seed, s, day);
        const st = stock.get(s.id);
        const served = Math.min(st, want);
        stock.set(s.id, st - served);
        t.demand += want;
        t.served += served;
        t.lost += want - served;
        if (d >= 7) {
          t.demandAfterWarmStart += want;
          t.servedAfterWarmStart += served;
        }
        if (diag && want > served) diag(s, d, want - served);
        soldToday.set(s.vendorSku, soldToday.get(s.vendorSku) + served);
        shelves += st - served;
      }
    }
    for (const [sku, n] of soldToday) sales.get(sku).push(n);
    const whUnits = [...wh.values()].reduce((a, b) => a + b, 0);
    t.shelfSum += shelves;
    t.warehouseSum += whUnits;
    t.stockSum += shelves + whUnits;
    t.stockDays++;
  }
  t.beyondNeed = beyondNeed({
    seed,
    goods,
    firstDay,
    days,
    shelfOf: (id) => stock.get(id),
    warehouseOf: (sku) => wh.get(sku),
    onOrderOf: (sku) => onOrder.get(sku),
    boughtOf: (sku) => bought.get(sku),
  });
  return t;
}

/** The table's figures of a tally. */
function routeSummary(t) {
  return {
    fillRate: t.demand ? t.served / t.demand : 1,
    fillAfterWeek: t.demandAfterWarmStart ? t.servedAfterWarmStart / t.demandAfterWarmStart : 1,
    lost: t.lost,
    stops: t.stops,
    machineVisits: t.machineVisits,
    emptyVisits: t.emptyVisits,
    unitsBought: t.unitsBought,
    moneyFen: t.moneyFen,
    averageStock: t.stockDays ? t.stockSum / t.stockDays : 0,
    averageShelves: t.stockDays ? t.shelfSum / t.stockDays : 0,
    averageWarehouse: t.stockDays ? t.warehouseSum / t.stockDays : 0,
    beyondNeed: t.beyondNeed,
    capacityDays: t.capacityDays,
    maxStops: t.maxStops,
    unitsReturned: t.unitsReturned,
    warehouseShortUnits: t.warehouseShortUnits,
  };
}

module.exports = { SUPPLIERS, supplierOf, arrivalDays, maxLead, meanLead, visitsOn, WARMUP_ROUTE_DAYS, goodsOf, newRouteTally, beyondNeed, simulateFixedRoute, routeSummary };

/**
 * How much fill a stop budget allows on this fleet at best (no service): each machine on its own fixed cycle of
 * T = 1..maxT days, every slot refilled to capacity at each visit, the warehouse never short. Starting from every
 * machine at maxT, the machine whose shorter cycle serves the most units per extra stop gets it, until the budget is
 * spent (a greedy allocation: an estimate of the best, not a proof). Per budget: the fill, the stops used, the cycles.
 */
function fillBoundAtStops({ fleet, goods, seed, firstDay, days, shelves0, history, budgets, maxT = 14 }) {
  const table = fleet.map((m) => {
    const one = [m];
    const rows = [];
    for (let T = 1; T <= maxT; T++) {
      const t = simulateFixedRoute({ fleet: one, goods, seed, firstDay, days, k: T, shelves0, history, unlimited: true });
      rows[T] = { served: t.served, demand: t.demand, stops: t.stops };
    }
    return rows;
  });
  return budgets.map((budget) => allocate(table, budget, maxT));
}

function allocate(table, budget, maxT) {
  const cycle = table.map(() => maxT);
  let stops = table.reduce((a, r, i) => a + r[cycle[i]].stops, 0);
  for (;;) {
    let best = null;
    table.forEach((r, i) => {
      for (let T = cycle[i] - 1; T >= 1; T--) {
        const dStops = r[T].stops - r[cycle[i]].stops;
        const dServed = r[T].served - r[cycle[i]].served;
        if (dStops <= 0 || stops + dStops > budget) continue;
        const gain = dServed / dStops;
        if (!best || gain > best.gain) best = { i, T, gain, dStops };
      }
    });
    if (!best || best.gain <= 0) break;
    cycle[best.i] = best.T;
    stops += best.dStops;
  }
  const served = table.reduce((a, r, i) => a + r[cycle[i]].served, 0);
  const demand = table.reduce((a, r) => a + r[1].demand, 0);
  return { fill: served / demand, stops, cycles: cycle };
}

module.exports.fillBoundAtStops = fillBoundAtStops;
