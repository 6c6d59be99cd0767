/**
 * Stated values of the replenishment strategy (docs/replenishment-policy.md). Plain constants: no environment
 * variable, so they are the same in every instance. A value used instead of a measurement is reported as `stated`.
 */
export const FORECASTING_DEFAULTS = {
  /** Complete +08:00 days of sales the demand rate is measured over (the sync's default sales window). */
  salesWindowDays: 30,
  /** Fewer in-stock days than this: the rate is not measured, the stated fallback is used. */
  minHistoryDays: 7,
  /** Units per slot per day assumed when a slot has too little history. */
  fallbackRatePerDay: 1,
  /** Days until the next review (the plan is a periodic review, order-up-to policy). */
  reviewPeriodDays: 7,
  /** Lead time stated when no delivery of that fulfiller has been measured. */
  statedLeadTimeDays: 2,
  /** Spread (σ_L, days) of the stated lead time when the config states none (SERVICE_STATED_LEAD_TIME_SIGMA_DAYS). */
  statedLeadTimeSigmaDays: 0,
  /** How many of the most recent completed deliveries (runs, restock orders) the measured lead time reads. */
  leadTimeSamples: 10,
  /** At most this many received lines of those deliveries are averaged (one sample per line). */
  leadTimeLineSamples: 1000,
  /** Safety factor: z of a 95% cycle service level. */
  serviceLevelZ: 1.65,
} as const;
