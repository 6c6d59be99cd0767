/**
 * The day's route, chosen by what a stop costs (pure; docs/replenishment-policy.md, "The route day").
 *
 * Per stop (a site: machines at one address share it), money on both sides:
 *   L(n)  expected margin lost if the next visit is n days away: Σ over slots of margin · E[(D_n − stock)+]
 *   g     what serving the stop costs per day in its best steady cycle: min over T of (stop cost + L_full(T)) / T,
 *         L_full(T) being the loss of a cycle that starts with every slot filled (T* is that T)
 *   V(k)  the value of visiting on day k rather than on the next possible day k' after it:
 *         L(k') − L(k) (the margin the wait loses) − (k' − k) · g (the stop cost the wait saves)
 * A stop is due on the first possible day with V > 0. Looking `horizonDays` ahead, a day with more stops due than the
 * drivers can make hands its surplus to the possible day before it (the stops closest to due go first), so skipping
 * today never leaves tomorrow over capacity when today had room. Today's route: the stops due or pulled to today,
 * best value first, up to the day's capacity.
 */
import { expectedShortage } from './shortage.rules';

export interface RouteSlot {
  slotId: string;
  stock: number;
  capacity: number | null;
  ratePerDay: number;
  sigmaDaily: number;
  /** Margin of one unit sold (fen). */
  marginFen: number;
}

export interface RouteMachine {
  id: string;
  name: string;
  site: string;
  stopCostFen: number;
  /** Weekdays it can be visited, 0 = Sunday … 6 = Saturday (+08:00). */
  visitDays: readonly number[];
  slots: readonly RouteSlot[];
}

export interface RouteSettings {
  stopsPerDay: number;
  horizonDays: number;
  /** Longest cycle considered (days). */
  maxCycleDays: number;
  /** Safety factor of the fill level (the plan's z). */
  z: number;
}

export type StopDecision = 'due' | 'pulled_forward' | 'not_due' | 'not_a_visit_day' | 'over_capacity' | 'nothing_sells';

export interface StopAssessment {
  site: string;
  machines: RouteMachine[];
  stopCostFen: number;
  visitDays: number[];
  cycleDays: number;
  /** Stop cost and cycle loss per day of the best cycle (fen). */
  costPerDayFen: number;
  /** Next possible visit after today (days from today), null when never. */
  nextPossible: number | null;
  lostIfSkippedFen: number;
  valueFen: number;
  /** First possible day (days from today) on which a visit pays, within the horizon; null when none. */
  dueIn: number | null;
  decision: StopDecision;
  /** Pulled forward: the day it was due and how many stops were due then. */
  crowdedDay?: { day: number; due: number };
}

export interface RoutePlan {
  visit: StopAssessment[];
  skip: StopAssessment[];
}

/** Margin lost over `days` from the stocks given (fen, unrounded). */
export function lossFen(slots: readonly RouteSlot[], days: number, stockOf: (s: RouteSlot) => number = (s) => s.stock): number {
  if (days <= 0) return 0;
  let t = 0;
  for (const s of slots) {
    if (!(s.ratePerDay > 0) || !(s.marginFen > 0)) continue;
    const mean = s.ratePerDay * days;
    t += s.marginFen * expectedShortage(stockOf(s), mean, Math.max(s.ratePerDay, s.sigmaDaily * s.sigmaDaily) * days);
  }
  return t;
}

/** The level a slot is filled to at a visit: demand until the next planned visit with safety, capped at capacity. */
export function fillTo(slot: Pick<RouteSlot, 'capacity' | 'ratePerDay' | 'sigmaDaily' | 'stock'>, cycleDays: number, z: number): number {
  if (!(slot.ratePerDay > 0)) return Math.max(0, slot.stock);
  const v = Math.max(slot.ratePerDay, slot.sigmaDaily * slot.sigmaDaily) * cycleDays;
  const cover = Math.ceil(slot.ratePerDay * cycleDays + z * Math.sqrt(v));
  return slot.capacity === null ? cover : Math.min(slot.capacity, cover);
}

/** The best steady cycle of a stop: T* and its cost per day, every slot starting full (capacity, or T's cover). */
export function bestCycle(slots: readonly RouteSlot[], stopCostFen: number, maxCycleDays: number, z: number): { days: number; costPerDayFen: number } {
  let best = { days: maxCycleDays, costPerDayFen: Infinity };
  for (let T = 1; T <= maxCycleDays; T++) {
    const full = lossFen(slots, T, (s) => (s.capacity === null ? fillTo({ ...s, stock: 0 }, T, z) : s.capacity));
    const perDay = (stopCostFen + full) / T;
    if (perDay < best.costPerDayFen - 1e-9) best = { days: T, costPerDayFen: perDay };
  }
  return best;
}

/** Weekday (0 = Sunday) of an ISO date plus `k` days. */
export function weekdayOf(isoDay: string, k = 0): number {
  return new Date(Date.parse(`${isoDay}T00:00:00Z`) + k * 86_400_000).getUTCDay();
}

export function addDays(isoDay: string, k: number): string {
  return new Date(Date.parse(`${isoDay}T00:00:00Z`) + k * 86_400_000).toISOString().slice(0, 10);
}

/** Machines grouped into stops by site: one stop cost (the highest of its machines), the days all of them allow. */
export function stopsOf(machines: readonly RouteMachine[]): { site: string; machines: RouteMachine[]; stopCostFen: number; visitDays: number[] }[] {
  const bySite = new Map<string, RouteMachine[]>();
  for (const m of machines) bySite.set(m.site, [...(bySite.get(m.site) ?? []), m]);
  return [...bySite.entries()].map(([site, ms]) => {
    const common = [0, 1, 2, 3, 4, 5, 6].filter((d) => ms.every((m) => m.visitDays.includes(d)));
    const any = [0, 1, 2, 3, 4, 5, 6].filter((d) => ms.some((m) => m.visitDays.includes(d)));
    return { site, machines: ms, stopCostFen: Math.max(...ms.map((m) => m.stopCostFen)), visitDays: common.length ? common : any };
  });
}

/** The route of the day `todayIso` (+08:00 calendar day). */
export function planRoute(machines: readonly RouteMachine[], todayIso: string, settings: RouteSettings): RoutePlan {
  const H = Math.max(1, settings.horizonDays);
  const w0 = weekdayOf(todayIso);
  const stops: StopAssessment[] = stopsOf(machines).map((st) => {
    const slots = st.machines.flatMap((m) => m.slots);
    const allowed = (k: number) => st.visitDays.includes((w0 + k) % 7);
    const nextAfter = (k: number): number | null => {
      for (let j = k + 1; j <= k + 7; j++) if (allowed(j)) return j;
      return null;
    };
    const cycle = bestCycle(slots, st.stopCostFen, settings.maxCycleDays, settings.z);
    const L = (n: number) => lossFen(slots, n);
    const value = (k: number): number => {
      const next = nextAfter(k);
      return next === null ? L(k + 7) - L(k) : L(next) - L(k) - (next - k) * cycle.costPerDayFen;
    };
    let dueIn: number | null = null;
    for (let k = 0; k < H && dueIn === null; k++) if (allowed(k) && value(k) > 0) dueIn = k;
    const next0 = nextAfter(0);
    const sells = slots.some((s) => s.ratePerDay > 0 && s.marginFen > 0);
    const decision: StopDecision = !sells ? 'nothing_sells' : !allowed(0) ? 'not_a_visit_day' : dueIn === 0 ? 'due' : 'not_due';
    return {
      site: st.site,
      machines: st.machines,
      stopCostFen: st.stopCostFen,
      visitDays: st.visitDays,
      cycleDays: cycle.days,
      costPerDayFen: cycle.costPerDayFen,
      nextPossible: next0,
      lostIfSkippedFen: Math.round(L(next0 ?? 7)),
      valueFen: Math.round(value(0)),
      dueIn,
      decision,
    };
  });
  pullForward(stops, w0, settings.stopsPerDay, H);
  const today = stops.filter((s) => s.decision === 'due' || s.decision === 'pulled_forward').sort(byValue);
  for (const s of today.slice(settings.stopsPerDay)) s.decision = 'over_capacity';
  const visit = today.slice(0, settings.stopsPerDay);
  const skip = stops.filter((s) => !visit.includes(s)).sort((a, b) => (a.dueIn ?? 99) - (b.dueIn ?? 99) || byValue(a, b));
  return { visit, skip };
}

const byValue = (a: StopAssessment, b: StopAssessment) => b.valueFen - a.valueFen || a.site.localeCompare(b.site);

/**
 * Days with more stops due than the drivers can make hand the surplus to the possible day before, latest day first;
 * the stops most nearly due at that earlier day move (an early visit costs them least). Stops moved to today are
 * `pulled_forward`.
 */
function pullForward(stops: StopAssessment[], w0: number, capacity: number, H: number): void {
  const day = new Map<StopAssessment, number>();
  for (const s of stops) if (s.decision !== 'nothing_sells' && s.dueIn !== null) day.set(s, s.dueIn);
  const prevAllowed = (s: StopAssessment, k: number): number | null => {
    for (let j = k - 1; j >= 0; j--) if (s.visitDays.includes((w0 + j) % 7)) return j;
    return null;
  };
  for (let k = H - 1; k >= 1; k--) {
    const onDay = [...day.entries()].filter(([, d]) => d === k).map(([s]) => s);
    if (onDay.length <= capacity) continue;
    // Most nearly due first: the highest value of the earlier visit loses least by going early.
    const movable = onDay
      .map((s) => ({ s, to: prevAllowed(s, k) }))
      .filter((x): x is { s: StopAssessment; to: number } => x.to !== null)
      .sort((a, b) => b.s.valueFen - a.s.valueFen || a.s.site.localeCompare(b.s.site));
    for (const { s, to } of movable.slice(0, onDay.length - capacity)) {
      day.set(s, to);
      if (to === 0 && s.decision === 'not_due') {
        s.decision = 'pulled_forward';
        s.crowdedDay = { day: k, due: onDay.length };
      }
    }
  }
}
