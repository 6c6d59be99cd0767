import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { Tx } from '../database/tx';
import { CallFailure, callFailure, claimExpired, claimLeaseMs, Failure, failureOf, ReadOutcome, readOutcome, RecoveryTally, retryAfterSeconds, tally } from './claim.rules';

export type CallResult<T> = { ok: true; value: T } | { ok: false; failure: CallFailure; error: unknown; reason: string };
export type ReadResult<T> = { outcome: 'placed'; value: T } | { outcome: Exclude<ReadOutcome, 'placed'>; failure: Failure };

/**
 * The money-claims core (rules in claim.rules.ts): the one lease, the one call (never retried), the one reading of
 * the partner for recovery and the one recovery pass. The resource keeps its own claim (a status with a claim
 * time, taken in a transaction with the row lock) and records the answer in its own transaction; this decides what
 * answers mean.
 */
@Injectable()
export class MoneyClaims {
  private readonly logger = new Logger(MoneyClaims.name);
  readonly leaseMs: number;
  private readonly partnerTimeoutMs: number;
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly tx: Tx,
  ) {
    this.leaseMs = claimLeaseMs(config.partnerTimeoutMs);
    this.partnerTimeoutMs = config.partnerTimeoutMs;
  }

  /** `Retry-After` seconds for a request refused because the claim stamped `claimedAt` is still in progress. */
  retryAfter(claimedAt: Date | null, now = new Date()): number {
    return retryAfterSeconds(claimedAt, now, this.leaseMs, this.partnerTimeoutMs);
  }

  /** Is a claim stamped `claimedAt` past its lease? */
  expired(claimedAt: Date | null, now = new Date()): boolean {
    return claimExpired(claimedAt, now, this.leaseMs);
  }

  /** Calls the partner once: never retried; a failure is `refused` (nothing ordered) or `uncertain` (may exist). */
  async callOnce<T>(call: () => Promise<T>): Promise<CallResult<T>> {
    try {
      return { ok: true, value: await call() };
    } catch (err) {
      const f = failureOf(err);
      return { ok: false, failure: callFailure(f), error: err, reason: f.reason };
    }
  }

  /** Reads the partner for an interrupted claim: `placed` with what it read, `not_placed` or `unknown`. */
  async read<T>(read: () => Promise<T>): Promise<ReadResult<T>> {
    try {
      return { outcome: 'placed', value: await read() };
    } catch (err) {
      const failure = failureOf(err);
      return { outcome: readOutcome({ failed: failure }) as Exclude<ReadOutcome, 'placed'>, failure };
    }
  }

  /**
   * Settles one interrupted claim, the same way on every money path: READ the partner (never call it again);
   * `unknown` leaves the claim as it is for the next attempt (logged with `why`); a clear answer is applied by
   * `apply` in one transaction, which answers false when the claim was settled meanwhile (`moved`).
   */
  async settleByReading<R extends { outcome: ReadOutcome }>(
    what: string,
    read: () => Promise<R>,
    why: (r: R) => string,
    apply: (r: R & { outcome: Exclude<ReadOutcome, 'unknown'> }) => Promise<boolean>,
  ): Promise<ReadOutcome | 'moved'> {
    const r = await read();
    if (r.outcome === 'unknown') {
      this.logger.warn(`${what}: interrupted claim not settled (${why(r)}); retried on the next tick`);
      return 'unknown';
    }
    const moved = await this.tx.run(() => apply(r as R & { outcome: Exclude<ReadOutcome, 'unknown'> }));
    return moved ? r.outcome : 'moved';
  }

  /** Recovers each expired claim in turn and counts what happened. */
  async recoverAll<S>(stuck: S[], recover: (s: S) => Promise<ReadOutcome | 'moved'>): Promise<RecoveryTally> {
    let t: RecoveryTally = { checked: 0, placed: 0, released: 0, left: 0 };
    for (const s of stuck) t = tally(t, await recover(s));
    return t;
  }
}
