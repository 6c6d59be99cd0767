/**
 * Lead time per fulfiller (pure): the mean and the spread (sample standard deviation) of the most recent completed
 * deliveries, one sample per received line (placed → that line's receipt, on the service clock; runs received before
 * lines carried their time give one sample, placed → delivered); with none, the stated values.
 */
export interface LeadTimeSample {
  startedAt: Date;
  finishedAt: Date;
}

/**
 * Whose completed deliveries measure a fulfiller's lead time, as the caller (replenishment) states it; forecasting
 * knows no fulfiller kinds, so the kinds of runs to read come in as data:
 * - `runs_by_fulfiller`: the runs that name the fulfiller's namespace (placed → delivered);
 * - `runs_listing_supplier`: the runs of `runKinds` whose `fulfiller` lists the supplier, each received line ordered
 *   from it;
 * - `restock_orders_by_platform`: a machine platform's binding restock orders (sent → completed).
 */
export type LeadSampleSource =
  | { readonly from: 'runs_by_fulfiller' }
  | { readonly from: 'runs_listing_supplier'; readonly runKinds: readonly string[] }
  | { readonly from: 'restock_orders_by_platform' };

export interface LeadTime {
  days: number;
  /** σ_L: the spread of the lead time in days (0 with fewer than two samples; the stated spread when stated). */
  sigmaDays: number;
  source: 'measured' | 'stated';
  samples: number;
}

const DAY_MS = 86_400_000;

export function leadTimeOf(samples: LeadTimeSample[], stated: { days: number; sigmaDays?: number; maxSamples: number }): LeadTime {
  const valid = samples
    .filter((s) => s.finishedAt.getTime() >= s.startedAt.getTime())
    .sort((a, b) => b.finishedAt.getTime() - a.finishedAt.getTime())
    .slice(0, stated.maxSamples);
  if (valid.length === 0) return { days: stated.days, sigmaDays: stated.sigmaDays ?? 0, source: 'stated', samples: 0 };
  const days = valid.map((s) => (s.finishedAt.getTime() - s.startedAt.getTime()) / DAY_MS);
  const mean = days.reduce((t, x) => t + x, 0) / days.length;
  const variance = days.length > 1 ? days.reduce((t, x) => t + (x - mean) ** 2, 0) / (days.length - 1) : 0;
  return { days: round2(mean), sigmaDays: round2(Math.sqrt(variance)), source: 'measured', samples: valid.length };
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
