/**
 * Lead time per fulfiller (pure): the mean of the most recent completed deliveries, placed/sent to
 * delivered/completed; with none, the stated value.
 */
export interface LeadTimeSample {
  startedAt: Date;
  finishedAt: Date;
}

/**
 * Whose completed deliveries measure a fulfiller's lead time: its own runs (placed → delivered), the supply-checkout
 * runs that ordered from a supplier, or a machine platform's binding restock orders (sent → completed).
 */
export type LeadSampleSource = 'runs_by_fulfiller' | 'checkout_runs_by_supplier' | 'restock_orders_by_platform';

export interface LeadTime {
  days: number;
  source: 'measured' | 'stated';
  samples: number;
}

const DAY_MS = 86_400_000;

export function leadTimeOf(samples: LeadTimeSample[], stated: { days: number; maxSamples: number }): LeadTime {
  const valid = samples
    .filter((s) => s.finishedAt.getTime() >= s.startedAt.getTime())
    .sort((a, b) => b.finishedAt.getTime() - a.finishedAt.getTime())
    .slice(0, stated.maxSamples);
  if (valid.length === 0) return { days: stated.days, source: 'stated', samples: 0 };
  const meanMs = valid.reduce((t, s) => t + (s.finishedAt.getTime() - s.startedAt.getTime()), 0) / valid.length;
  return { days: round2(meanMs / DAY_MS), source: 'measured', samples: valid.length };
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
