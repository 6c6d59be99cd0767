/**
 * Demand per slot (pure). Days are indexed inside the sales window: 0 is the oldest complete +08:00 day,
 * `windowDays - 1` is yesterday. Inputs are per-slot aggregates computed in SQL (never every sale).
 *
 * A stocked-out day is not a zero-demand day. A day counts as stocked out when
 *  - the lowest stock recorded that day (each inventory sync, delivery, depot fill, plan) was 0: its sales, if any,
 *    are a lower bound of its demand, so the day leaves both the units and the day count, or
 *  - the slot is empty now: every day after its last sale (the sale that exhausted the stock) is stocked out.
 * The observed days start where the service has evidence the slot could sell (`observedStart`), not at its first sale:
 * leaving out the quiet days before a slow good's first sale would overstate its rate.
 * Refunded, cancelled and unpaid lines never count: only `paid` lines of `settled` orders are sales.
 */
export interface SlotSalesAggregate {
  windowDays: number;
  /** Σ units sold per day over the window (paid lines of settled orders). */
  units: number;
  /** Σ (units sold that day)² over the window. */
  sumSquares: number;
  /** Index of the first and last day with a sale, null when none. */
  firstSaleDay: number | null;
  lastSaleDay: number | null;
  /** Index of the first day a stock reading saw the slot, null when never. */
  firstSnapshotDay: number | null;
  /** Days whose lowest recorded stock was 0 (with or without sales), in total and after the last sale day. */
  snapshotEmptyDays: number;
  snapshotEmptyDaysAfterLastSale: number;
  /** Σx and Σx² of the sales made on those empty days (a lower bound of their demand: left out). */
  snapshotEmptyUnits: number;
  snapshotEmptySumSquares: number;
  /** The slot's first reading saw it at 0. */
  firstSnapshotEmpty: boolean;
  /** First day with a sale of any slot of the machine, and first day a reading saw any slot of it; null when none. */
  machineFirstSaleDay: number | null;
  machineFirstSnapshotDay: number | null;
  /** Current stock of the slot. */
  stockNow: number;
}

export interface DemandSettings {
  minHistoryDays: number;
  fallbackRatePerDay: number;
}

export interface DemandEstimate {
  ratePerDay: number;
  /** Standard deviation of daily demand. */
  sigmaDaily: number;
  measured: boolean;
  /** Days observed (since the slot could first sell in the window), in stock and stocked out. */
  observedDays: number;
  inStockDays: number;
  stockedOutDays: number;
  /** Every unit sold in the window, stocked-out days included. */
  unitsSold: number;
  /** Why the stated fallback was used; null when measured. */
  fallbackReason: string | null;
}

const minOf = (...xs: (number | null | undefined)[]): number | null => {
  const seen = xs.filter((d): d is number => d !== null && d !== undefined);
  return seen.length ? Math.max(0, Math.min(...seen)) : null;
};

/**
 * First day the slot is known to have been able to sell: its first sale or first stock reading, or earlier, for
 * history older than the service's readings of its machine (sales backfilled from the ledger), the machine's first
 * sale of the window, when the slot was there as the readings began (a slot first read later was installed later).
 * Not when the slot's first reading saw it empty before any sale: it may have stood empty since.
 * A slot with neither a sale nor a reading in the window is not observed.
 */
export function observedStart(a: SlotSalesAggregate): number | null {
  const own = minOf(a.firstSaleDay, a.firstSnapshotDay);
  if (own === null) return null;
  const m = a.machineFirstSaleDay;
  const thereWhenReadingsBegan = own <= (a.machineFirstSnapshotDay ?? a.windowDays);
  const emptyWhenFirstRead = a.firstSnapshotEmpty && (a.firstSaleDay === null || a.firstSaleDay > (a.firstSnapshotDay ?? 0));
  return m !== null && thereWhenReadingsBegan && !emptyWhenFirstRead ? Math.min(own, Math.max(0, m)) : own;
}

/** Days of the window on which the slot could sell, and of those, the ones it stood empty. */
export function stockedOutDays(a: SlotSalesAggregate): { observedDays: number; stockedOutDays: number } {
  const firstSeen = observedStart(a);
  if (firstSeen === null) return { observedDays: 0, stockedOutDays: 0 };
  const observedDays = a.windowDays - firstSeen;
  let out: number;
  if (a.stockNow <= 0) {
    // Empty now: every day after the last sale (or since first seen, without a sale) was empty.
    const from = a.lastSaleDay === null ? firstSeen : a.lastSaleDay + 1;
    const trailing = Math.max(0, a.windowDays - from);
    out = a.snapshotEmptyDays - a.snapshotEmptyDaysAfterLastSale + trailing;
  } else {
    out = a.snapshotEmptyDays;
  }
  return { observedDays, stockedOutDays: Math.min(observedDays, Math.max(0, out)) };
}

export function estimateDemand(a: SlotSalesAggregate, s: DemandSettings): DemandEstimate {
  const { observedDays, stockedOutDays: out } = stockedOutDays(a);
  const n = observedDays - out;
  const base = { observedDays, inStockDays: n, stockedOutDays: out, unitsSold: a.units };
  if (n < s.minHistoryDays) {
    const rate = s.fallbackRatePerDay;
    return {
      ...base,
      ratePerDay: rate,
      // Poisson assumption for the stated rate: variance equals the mean.
      sigmaDaily: Math.sqrt(rate),
      measured: false,
      fallbackReason: `only ${n} in-stock day(s) of sales history (minimum ${s.minHistoryDays}): stated rate ${rate}/day used`,
    };
  }
  // Only in-stock days: what sold on a day that ran empty is a lower bound, not the demand.
  const units = a.units - a.snapshotEmptyUnits;
  const squares = a.sumSquares - a.snapshotEmptySumSquares;
  const mean = units / n;
  const variance = n > 1 ? Math.max(0, (squares - (units * units) / n) / (n - 1)) : 0;
  return { ...base, ratePerDay: mean, sigmaDaily: Math.sqrt(variance), measured: true, fallbackReason: null };
}

/**
 * The same aggregate from a plain daily series (tests, the bench): `sales[i]` units on day i, `snapshotEmpty[i]`
 * true when the lowest reading of day i was 0, `seen[i]` true when a reading saw the slot that day. The machine's
 * first sale and first reading days are passed as they are (they need the machine's other slots).
 */
export function aggregateFromSeries(input: {
  sales: number[];
  snapshotEmpty?: boolean[];
  seen?: boolean[];
  stockNow: number;
  machineFirstSaleDay?: number | null;
  machineFirstSnapshotDay?: number | null;
}): SlotSalesAggregate {
  const w = input.sales.length;
  let units = 0;
  let sumSquares = 0;
  let firstSaleDay: number | null = null;
  let lastSaleDay: number | null = null;
  let firstSnapshotDay: number | null = null;
  for (let i = 0; i < w; i++) {
    const x = input.sales[i];
    units += x;
    sumSquares += x * x;
    if (x > 0) {
      firstSaleDay ??= i;
      lastSaleDay = i;
    }
    if ((input.seen?.[i] || input.snapshotEmpty?.[i]) && firstSnapshotDay === null) firstSnapshotDay = i;
  }
  let snapshotEmptyDays = 0;
  let snapshotEmptyDaysAfterLastSale = 0;
  let snapshotEmptyUnits = 0;
  let snapshotEmptySumSquares = 0;
  for (let i = 0; i < w; i++) {
    if (!input.snapshotEmpty?.[i]) continue;
    snapshotEmptyDays++;
    snapshotEmptyUnits += input.sales[i];
    snapshotEmptySumSquares += input.sales[i] * input.sales[i];
    if (lastSaleDay === null || i > lastSaleDay) snapshotEmptyDaysAfterLastSale++;
  }
  return {
    windowDays: w,
    units,
    sumSquares,
    firstSaleDay,
    lastSaleDay,
    firstSnapshotDay,
    snapshotEmptyDays,
    snapshotEmptyDaysAfterLastSale,
    snapshotEmptyUnits,
    snapshotEmptySumSquares,
    firstSnapshotEmpty: firstSnapshotDay !== null && input.snapshotEmpty?.[firstSnapshotDay] === true,
    machineFirstSaleDay: input.machineFirstSaleDay ?? null,
    machineFirstSnapshotDay: input.machineFirstSnapshotDay ?? null,
    stockNow: input.stockNow,
  };
}
