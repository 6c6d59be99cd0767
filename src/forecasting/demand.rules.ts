/**
 * Demand per slot (pure). Days are indexed inside the sales window: 0 is the oldest complete +08:00 day,
 * `windowDays - 1` is yesterday. Inputs are per-slot aggregates computed in SQL (never every sale).
 *
 * A stocked-out day is not a zero-demand day. A day counts as stocked out when it had no paid sale and
 *  - an inventory snapshot recorded that day saw the slot at 0 (snapshots are taken at each stock reading), or
 *  - the slot is empty now: every day after its last sale (the sale that exhausted the stock) is stocked out.
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
  /** Index of the first day an inventory snapshot saw the slot, null when never. */
  firstSnapshotDay: number | null;
  /** Days with no sale whose snapshot saw the slot empty, in total and after the last sale day. */
  snapshotEmptyDays: number;
  snapshotEmptyDaysAfterLastSale: number;
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
  /** Days observed (since the slot was first seen in the window), in stock and stocked out. */
  observedDays: number;
  inStockDays: number;
  stockedOutDays: number;
  unitsSold: number;
  /** Why the stated fallback was used; null when measured. */
  fallbackReason: string | null;
}

/** Days of the window on which the slot is known to have existed, and of those, the ones it stood empty. */
export function stockedOutDays(a: SlotSalesAggregate): { observedDays: number; stockedOutDays: number } {
  const seen = [a.firstSaleDay, a.firstSnapshotDay].filter((d): d is number => d !== null);
  if (seen.length === 0) return { observedDays: 0, stockedOutDays: 0 };
  const firstSeen = Math.max(0, Math.min(...seen));
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
  const mean = a.units / n;
  const variance = n > 1 ? Math.max(0, (a.sumSquares - (a.units * a.units) / n) / (n - 1)) : 0;
  return { ...base, ratePerDay: mean, sigmaDaily: Math.sqrt(variance), measured: true, fallbackReason: null };
}

/**
 * The same aggregate from a plain daily series (tests, small data): `sales[i]` units on day i, `snapshotEmpty[i]`
 * true when a snapshot saw the slot empty that day, `seen[i]` true when a snapshot saw the slot at all.
 */
export function aggregateFromSeries(input: {
  sales: number[];
  snapshotEmpty?: boolean[];
  seen?: boolean[];
  stockNow: number;
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
  for (let i = 0; i < w; i++) {
    if (input.snapshotEmpty?.[i] && input.sales[i] === 0) {
      snapshotEmptyDays++;
      if (lastSaleDay === null || i > lastSaleDay) snapshotEmptyDaysAfterLastSale++;
    }
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
    stockNow: input.stockNow,
  };
}
