/**
 * The review period actually used (pure; docs/replenishment-policy.md section 3): how often runs are placed, measured
 * from the runs themselves, and how often a machine is visited, measured from the recorded visits. A setting that
 * disagrees with the cadence sizes every target wrong: planned daily under the stated 7 days, an agent held more
 * stock than a weekly refill.
 */

/** Runs or visits needed on distinct days before a cadence is measured. */
export const MIN_CADENCE_DAYS = 3;

const DAY_MS = 86_400_000;

/** The +08:00 calendar day of an instant, as a day number. */
export const plus8Day = (at: Date): number => Math.floor((at.getTime() + 8 * 3_600_000) / DAY_MS);

/** Median gap (days) between distinct days, or null with fewer than MIN_CADENCE_DAYS of them. */
export function medianGapDays(days: readonly number[]): number | null {
  const d = [...new Set(days)].sort((a, b) => a - b);
  if (d.length < MIN_CADENCE_DAYS) return null;
  const gaps = d.slice(1).map((x, i) => x - d[i]).sort((a, b) => a - b);
  const m = gaps.length >> 1;
  return gaps.length % 2 ? gaps[m] : (gaps[m - 1] + gaps[m]) / 2;
}

export type ReviewSource = 'measured_runs' | 'setting';

/** R of the plan: the measured run cadence, else the setting (1-28 days). */
export function runReviewPeriod(setting: number, runGapDays: number | null): { days: number; source: ReviewSource } {
  return runGapDays === null ? { days: setting, source: 'setting' } : { days: Math.min(28, Math.max(1, Math.round(runGapDays))), source: 'measured_runs' };
}

/** The slack of the window: half a visit interval (the route replay compared none, a quarter and a half: bench/README.md "How the slot's R was chosen"; docs/adr/0062-demand-and-order-up-to-policy.md). */
const SLACK_SHARE = 2;

/** A machine's visits as the plan sees them: its interval, and in how many days the next one is expected. */
export interface MachineVisitCadence {
  gapDays: number;
  nextInDays: number;
}

/**
 * R of one slot. Goods reach a slot only at a visit, so the warehouse is ordered for the coming visits: the visits
 * expected before an order placed at the next review could arrive (within L + the run cadence) each take the slot up
 * to its fill level, which lasts until the visit after. The position therefore covers P = (the last such visit) +
 * (one visit interval), and R = P − L. No such visit: nothing is needed yet (R = 0: the next review orders in time).
 * No visits recorded by the deployment: R is the run cadence.
 */
export function slotReviewPeriod(runDays: number, leadDays: number, visits: MachineVisitCadence | null): number {
  if (visits === null) return runDays;
  const gap = Math.max(1, visits.gapDays);
  let last: number | null = null;
  // Slack: the route visits when a stop pays, not on a timetable, so a visit may come early.
  for (let v = Math.max(0, visits.nextInDays); v <= leadDays + runDays + gap / SLACK_SHARE; v += gap) last = v;
  if (last === null) return 0;
  return Math.min(28, Math.max(0, Math.ceil(last + gap - leadDays - 1e-9)));
}

/** The next visit of a machine: its last visit (+08:00 day number) plus its interval, from today; overdue or never visited: today. */
export function nextVisitIn(todayDay: number, lastVisitDay: number | null, gapDays: number): number {
  return lastVisitDay === null ? 0 : Math.max(0, lastVisitDay + Math.round(gapDays) - todayDay);
}

/** The fleet's visit interval: the median of the machines' own intervals, or null when none is measured. */
export function fleetVisitGap(gaps: readonly (number | null)[]): number | null {
  const g = gaps.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (g.length === 0) return null;
  const m = g.length >> 1;
  return g.length % 2 ? g[m] : (g[m - 1] + g[m]) / 2;
}
