/**
 * The service's clock (issue 25): what the plan, the forecast, the runs' placed/delivered times, the sync window, the
 * budget and the simulated partners read as "now". Production reads the machine's clock (`SystemClock`); a staging
 * service started with SERVICE_CLOCK=adjustable reads `AdjustableClock`, which only moves forward and only through
 * `POST /ucp/v1/admin/clock` (a replay moves 90 days in minutes without touching the machine's clock). Leases,
 * timeouts, caches and request logs keep the machine's clock: they measure real waiting, not the business day.
 */
export abstract class Clock {
  abstract nowMs(): number;

  now(): Date {
    return new Date(this.nowMs());
  }
}

export class SystemClock extends Clock {
  nowMs(): number {
    return Date.now();
  }
}

export class AdjustableClock extends Clock {
  private offsetMs = 0;

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  /** How far ahead of the machine's clock this clock runs. */
  get offset(): number {
    return this.offsetMs;
  }

  /** Moves the clock forward by `ms` (never back: times already recorded stay in the past). */
  advance(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`the clock moves forward by a whole number of milliseconds, got ${ms}`);
    this.offsetMs += ms;
  }
}

export function clockOf(adjustable: boolean): Clock {
  return adjustable ? new AdjustableClock() : new SystemClock();
}
