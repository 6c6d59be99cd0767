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

/**
 * R of one slot: goods reach a slot only at a visit, so what is ordered at the next review waits in the warehouse
 * for its machine's next visit, on average half a visit interval: R = run cadence + ⌈visit interval / 2⌉. The
 * machine's own interval, else the fleet's (a machine with too few visits yet is visited like the others), else none
 * (a deployment that does not record visits).
 */
export function slotReviewPeriod(runDays: number, visitGapDays: number | null): number {
  return visitGapDays === null ? runDays : Math.min(28, runDays + Math.ceil(visitGapDays / 2));
}

/** The fleet's visit interval: the median of the machines' own intervals, or null when none is measured. */
export function fleetVisitGap(gaps: readonly (number | null)[]): number | null {
  const g = gaps.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (g.length === 0) return null;
  const m = g.length >> 1;
  return g.length % 2 ? g[m] : (g[m - 1] + g[m]) / 2;
}
