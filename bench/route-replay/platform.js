// The route replay's machine platform (issue 35): the replenishment loop's simulated fleet behind the adapter contract
// (bench/replenishment-loop/platform.js), with one difference: the warm-up sells from the shelves too (a sold-out slot
// sells nothing, so the ledger the service reads is censored by stockouts), and what it sold per slot and day is kept
// for the baselines' warehouses. Goods reach a slot only through putAway (a visit, or the warm-up's van).
'use strict';

const { demandOf } = require('../replenishment-loop/world');
const { ReplayPlatform, dayStartMs, SALE_HOUR, saleOrder } = require('../replenishment-loop/platform');
const HOUR_MS = 3_600_000;

class RoutePlatform extends ReplayPlatform {
  /** `onLost(slot, dayIndex, units)`: called for each replay slot-day that could not sell its whole demand. */
  constructor(opts) {
    super(opts);
    this.historyFrom = opts.historyFrom;
    this.onLost = opts.onLost ?? (() => {});
    /** slot id → units sold per warm-up day (oldest first). */
    this.history = new Map();
    /** slot id → stock when the replay starts (taken at the first replay day's catch-up). */
    this.shelvesAtStart = null;
    /** Replay days with their sales-after-the-first-week split (tally fields added here). */
    this.tally.demandAfterWarmStart = 0;
    this.tally.servedAfterWarmStart = 0;
    this.tally.lost = 0;
  }

  sellDay(day) {
    const warmup = day < this.replayFrom;
    if (!warmup && this.shelvesAtStart === null) this.shelvesAtStart = new Map([...this.shelves].map(([id, sh]) => [id, sh.stock]));
    const at = dayStartMs(day) + SALE_HOUR * HOUR_MS;
    let onShelves = 0;
    let n = 0;
    for (const m of this.fleet) {
      for (const shelf of this.byLocation.get(m.locationId)) {
        const want = demandOf(this.seed, shelf.slot, day);
        const served = Math.min(shelf.stock, want);
        shelf.stock -= served;
        if (warmup) {
          const h = this.history.get(shelf.slot.id) ?? [];
          h.push(served);
          this.history.set(shelf.slot.id, h);
        } else {
          this.tally.demand += want;
          this.tally.served += served;
          this.tally.lost += want - served;
          if (day - this.replayFrom >= 7) {
            this.tally.demandAfterWarmStart += want;
            this.tally.servedAfterWarmStart += served;
          }
          this.tally.slotDays++;
          if (shelf.stock === 0) this.tally.stockoutSlotDays++;
          if (want > served) this.onLost(shelf.slot, day - this.replayFrom, want - served);
          onShelves += shelf.stock;
        }
        if (served > 0) this.orders.push(saleOrder(shelf.slot, day, at + n++ * 1000, served));
      }
    }
    if (!warmup) this.closingStock.push(onShelves);
  }

  /** The warm-up's van: the slot back to capacity. */
  refill(slotId) {
    const shelf = this.shelves.get(slotId);
    return this.putAway(slotId, shelf.capacity - shelf.stock);
  }

  stockOf(slotId) {
    this.catchUp();
    return this.shelves.get(slotId).stock;
  }
}

module.exports = { RoutePlatform };
