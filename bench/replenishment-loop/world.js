// The simulated fleet of the 90-day replenishment replay (issue 25): pure and seeded, no service, no I/O.
// Everything the replay and its unit tests (test/unit/bench/replenishment-loop-world.spec.ts) need to agree on:
// the fleet, per-slot demand, supplier lead times, the shelves, and the refill-to-capacity rule operators use today.
'use strict';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** mulberry32: small, fast, the same on every platform. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of the parts: one independent stream per (seed, day, slot), so both strategies see the same demand. */
function hashOf(...parts) {
  let h = 0x811c9dc5;
  for (const ch of parts.join('|')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Poisson by inversion (means here are small). */
function poisson(rnd, mean) {
  if (mean <= 0) return 0;
  const l = Math.exp(-mean);
  let k = 0;
  let p = 1;
  do {
    k++;
    p *= rnd();
  } while (p > l && k < 1000);
  return k - 1;
}

/** Log-normal with the given median and spread (sigma of the log). */
function lognormal(rnd, median, sigma) {
  const u = Math.max(rnd(), 1e-12);
  const v = rnd();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return median * Math.exp(sigma * z);
}

/**
 * The stated distributions (bench/README.md). Weekday index 0 = Monday (+08:00 calendar).
 * - Machines are offices (busy Monday to Friday) or stations (busy at the weekend), one in three a station.
 * - A slot's mean daily demand is log-normal, median 1.0 unit/day, sigma 0.8 (about 1 in 6 slots sells under
 *   0.35/day: intermittent), times the machine's traffic (uniform 0.7-1.3) and the weekday factor.
 * - Demand is intermittent: a day has a sale with probability min(0.9, mean/size) and then sells 1 + Poisson(size - 1)
 *   units, where size (units per selling day) is uniform 1.0-2.5; the expected daily demand is the mean.
 * - Capacity per slot: 8, 10, 12, 15 or 20 (uniform); every slot starts full.
 * - Supplier lead time per order line's good: 1 to 5 days, P = 0.15, 0.35, 0.30, 0.15, 0.05 (mean 2.6 days),
 *   drawn per order and good: the same supplier is sometimes faster, sometimes slower.
 */
const WEEKDAY = {
  office: [1.2, 1.2, 1.2, 1.2, 1.15, 0.6, 0.45],
  station: [0.85, 0.85, 0.85, 0.9, 1.05, 1.3, 1.25],
};
const CAPACITIES = [8, 10, 12, 15, 20];
const LEAD_DAYS = [
  [1, 0.15],
  [2, 0.35],
  [3, 0.3],
  [4, 0.15],
  [5, 0.05],
];

/**
 * `products`: [{ vendorSku, title, barcode, priceFen, eachPriceFen }]; each machine carries `slots` of them.
 * Machine ids `bench-m-01`…; slot ids as the service writes them (`<location>-<vendorSku>`).
 */
function buildFleet({ machines, slots, seed, products }) {
  if (products.length < slots) throw new Error(`${slots} slots need ${slots} products, got ${products.length}`);
  const rnd = prng(hashOf(seed, 'fleet'));
  const fleet = [];
  for (let m = 0; m < machines; m++) {
    const locationId = `bench-m-${String(m + 1).padStart(2, '0')}`;
    const kind = m % 3 === 2 ? 'station' : 'office';
    const traffic = 0.7 + 0.6 * rnd();
    // A different assortment per machine: a seeded shuffle of the products, first `slots` taken.
    const order = products.map((p, i) => ({ p, k: rnd(), i })).sort((a, b) => a.k - b.k);
    const machineSlots = order.slice(0, slots).map(({ p }) => {
      const mean = lognormal(rnd, 1.0, 0.8) * traffic;
      const size = 1 + 1.5 * rnd();
      const capacity = CAPACITIES[Math.floor(rnd() * CAPACITIES.length)];
      return { id: `${locationId}-${p.vendorSku}`, locationId, vendorSku: p.vendorSku, title: p.title, barcode: p.barcode, priceFen: p.priceFen, eachPriceFen: p.eachPriceFen, capacity, mean, size, kind };
    });
    fleet.push({ locationId, name: `Bench machine ${m + 1} (${kind})`, kind, slots: machineSlots });
  }
  return fleet;
}

/** +08:00 weekday of a day index (days since the epoch, China calendar): 0 = Monday. */
function weekdayOf(dayIndex) {
  return (((dayIndex + 3) % 7) + 7) % 7; // 1970-01-01 was a Thursday
}

/** Units demanded of a slot on a day (deterministic per seed, slot and day). */
function demandOf(seed, slot, dayIndex) {
  const rnd = prng(hashOf(seed, 'demand', slot.id, dayIndex));
  const mean = slot.mean * WEEKDAY[slot.kind][weekdayOf(dayIndex)];
  const pSale = Math.min(0.9, mean / slot.size);
  if (rnd() >= pSale) return 0;
  // 1 + Poisson(k - 1) with k = mean / pSale keeps the expected daily demand at `mean`.
  return 1 + poisson(rnd, mean / pSale - 1);
}

/** Lead time in days of one good on one order (deterministic per seed, order and good). */
function leadTimeOf(seed, orderRef, vendorSku) {
  const u = prng(hashOf(seed, 'lead', orderRef, vendorSku))();
  let acc = 0;
  for (const [days, p] of LEAD_DAYS) {
    acc += p;
    if (u < acc) return days;
  }
  return LEAD_DAYS[LEAD_DAYS.length - 1][0];
}

/** What the metrics of one strategy add up (bench/README.md defines each). */
function newTally() {
  return { demand: 0, served: 0, stockoutSlotDays: 0, slotDays: 0, unitsBought: 0, moneyFen: 0, stockDays: 0, stockSum: 0, orders: 0, doubleOrdered: 0 };
}

/** Sells one day's demand from a shelf: the units served (never below zero stock). */
function sell(shelf, demand) {
  const served = Math.min(shelf.stock, demand);
  shelf.stock -= served;
  return served;
}

/** Puts units on a shelf up to its capacity; the rest goes to the depot (van or warehouse). */
function putAway(shelf, units) {
  const put = Math.max(0, Math.min(units, shelf.capacity - shelf.stock));
  shelf.stock += put;
  return { put, toDepot: units - put };
}

/**
 * Today's rule: each machine is visited every `visitEveryDays` days (machines staggered over the cycle) and every slot
 * refilled to capacity from the van, bought at the each price the same day. Same fleet, same demand, same days.
 */
function simulateRefillToCapacity({ fleet, seed, firstDay, days, visitEveryDays }) {
  const t = newTally();
  const shelves = fleet.map((m) => m.slots.map((s) => ({ slot: s, stock: s.capacity, capacity: s.capacity })));
  for (let d = 0; d < days; d++) {
    const day = firstDay + d;
    let onShelves = 0;
    shelves.forEach((machine, mi) => {
      if ((d + mi) % visitEveryDays === 0) {
        t.orders++;
        for (const sh of machine) {
          const units = sh.capacity - sh.stock;
          t.unitsBought += units;
          t.moneyFen += units * sh.slot.eachPriceFen;
          sh.stock = sh.capacity;
        }
      }
      for (const sh of machine) {
        const want = demandOf(seed, sh.slot, day);
        t.demand += want;
        t.served += sell(sh, want);
        t.slotDays++;
        if (sh.stock === 0) t.stockoutSlotDays++;
        onShelves += sh.stock;
      }
    });
    t.stockSum += onShelves;
    t.stockDays++;
  }
  return t;
}

/** The table's figures of a tally. */
function summary(t) {
  return {
    fillRate: t.demand ? t.served / t.demand : 1,
    stockoutSlotDays: t.stockoutSlotDays,
    stockoutShare: t.slotDays ? t.stockoutSlotDays / t.slotDays : 0,
    unitsBought: t.unitsBought,
    moneyFen: t.moneyFen,
    averageStock: t.stockDays ? t.stockSum / t.stockDays : 0,
    orders: t.orders,
    doubleOrdered: t.doubleOrdered,
  };
}

module.exports = { DAY_MS, HOUR_MS, prng, hashOf, poisson, lognormal, buildFleet, weekdayOf, demandOf, leadTimeOf, newTally, sell, putAway, simulateRefillToCapacity, summary, WEEKDAY, LEAD_DAYS, CAPACITIES };
