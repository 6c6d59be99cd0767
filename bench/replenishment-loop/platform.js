// The replay's machine platform (issue 25): the simulated fleet of world.js behind the adapter contract the service
// reads (src/partners/adapter.types.ts), in process, on the service's clock. It sells each slot's demand of a day at
// noon (+08:00) from its shelves, and records the sales as settled ledger orders; the replay puts delivered goods on
// its shelves. It is the outside world: the service learns of it only through sync.
'use strict';

const { DAY_MS, HOUR_MS, demandOf, sell } = require('./world');

const CN_OFFSET_MS = 8 * HOUR_MS;
const dayIndexOf = (ms) => Math.floor((ms + CN_OFFSET_MS) / DAY_MS);
const dayStartMs = (day) => day * DAY_MS - CN_OFFSET_MS;
const SALE_HOUR = 12;

class ReplayPlatform {
  /**
   * `fleet`: world.buildFleet; `now()`: the service clock; `historyFrom`: the first day whose sales the ledger shows
   * (served in full: the history before the replay); `replayFrom`: the first day sold from the shelves.
   */
  constructor({ fleet, seed, namespace, now, historyFrom, replayFrom, tally }) {
    this.namespace = namespace;
    this.vendor = namespace.replace(/-machine$/, '');
    this.simulated = true;
    this.capabilities = new Set(['inventory', 'ledger']);
    this.fleet = fleet;
    this.seed = seed;
    this.now = now;
    this.replayFrom = replayFrom;
    this.tally = tally;
    this.shelves = new Map();
    this.byLocation = new Map();
    for (const m of fleet) {
      this.byLocation.set(m.locationId, m.slots.map((s) => {
        const shelf = { slot: s, stock: s.capacity, capacity: s.capacity };
        this.shelves.set(s.id, shelf);
        return shelf;
      }));
    }
    /** Ledger orders in time order (createdAt and updatedAt both increase). */
    this.orders = [];
    this.soldDay = historyFrom - 1;
    /** End-of-day stock on the shelves, per replay day (the replay adds the depot). */
    this.closingStock = [];
  }

  /** Sells every day whose sale hour has passed. */
  catchUp() {
    const now = this.now();
    for (let day = this.soldDay + 1; dayStartMs(day) + SALE_HOUR * HOUR_MS <= now; day++) {
      this.sellDay(day);
      this.soldDay = day;
    }
  }

  sellDay(day) {
    const history = day < this.replayFrom;
    const at = dayStartMs(day) + SALE_HOUR * HOUR_MS;
    let onShelves = 0;
    let n = 0;
    for (const m of this.fleet) {
      for (const shelf of this.byLocation.get(m.locationId)) {
        const want = demandOf(this.seed, shelf.slot, day);
        const served = history ? want : sell(shelf, want);
        if (!history) {
          this.tally.demand += want;
          this.tally.served += served;
          this.tally.slotDays++;
          if (shelf.stock === 0) this.tally.stockoutSlotDays++;
          onShelves += shelf.stock;
        }
        if (served > 0) this.orders.push(saleOrder(shelf.slot, day, at + n++ * 1000, served));
      }
    }
    if (!history) this.closingStock.push(onShelves);
  }

  /** Goods the route staff put on a slot: up to its capacity; the units that went on. */
  putAway(slotId, units) {
    this.catchUp();
    const shelf = this.shelves.get(slotId);
    if (!shelf) throw new Error(`no slot ${slotId}`);
    const put = Math.max(0, Math.min(units, shelf.capacity - shelf.stock));
    shelf.stock += put;
    return put;
  }

  async getInventory(locationId) {
    this.catchUp();
    const shelves = this.byLocation.get(locationId);
    if (!shelves) throw Object.assign(new Error(`unknown locationId ${locationId}`), { kind: 'rejected' });
    return {
      items: shelves.map((sh) => ({ vendorSku: sh.slot.vendorSku, title: sh.slot.title, priceFen: sh.slot.priceFen, stock: sh.stock, barcode: sh.slot.barcode, slotId: null, capacity: sh.capacity })),
      rejected: [],
    };
  }

  async getLedger(q) {
    this.catchUp();
    const key = q.by === 'updated' ? 'updatedAt' : 'createdAt';
    const first = lowerBound(this.orders, key, q.fromMs);
    const last = lowerBound(this.orders, key, q.toMs + 1);
    const start = first + (q.page - 1) * q.size;
    const end = Math.min(last, start + q.size);
    return { records: this.orders.slice(start, end), rejected: [], hasMore: end < last };
  }

  async setPrices() {
    throw new Error('the replay platform takes no price changes');
  }

  async sendRestock() {
    throw new Error('the replay platform takes no restock orders (its goods come from the supplier runs)');
  }

  async getRestock() {
    throw new Error('the replay platform has no restock orders');
  }
}

function saleOrder(slot, day, createdAt, quantity) {
  const settledAt = createdAt + 10 * 60_000;
  return {
    orderNo: `R${day}-${slot.id}`,
    locationId: slot.locationId,
    totalFen: quantity * slot.priceFen,
    createdAt,
    takenAt: createdAt,
    settledAt,
    updatedAt: settledAt,
    finalized: true,
    state: 'settled',
    stateRaw: 'TRADE_SUCCESS',
    stateLabel: 'completed',
    lines: [{ vendorSku: slot.vendorSku, title: slot.title, quantity, priceFen: slot.priceFen, status: 'paid', costFen: null }],
  };
}

function lowerBound(rows, key, value) {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid][key] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

module.exports = { ReplayPlatform, dayIndexOf, dayStartMs, SALE_HOUR, saleOrder };
