import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { CallFailure, callFailure, claimExpired, claimLeaseMs, Failure, failureOf, ReadOutcome, readOutcome, RecoveryTally, tally } from './claim.rules';

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
  readonly leaseMs: number;
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.leaseMs = claimLeaseMs(config.partnerTimeoutMs);
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

  /** Recovers each expired claim in turn and counts what happened. */
  async recoverAll<S>(stuck: S[], recover: (s: S) => Promise<ReadOutcome | 'moved'>): Promise<RecoveryTally> {
    let t: RecoveryTally = { checked: 0, placed: 0, released: 0, left: 0 };
    for (const s of stuck) t = tally(t, await recover(s));
    return t;
  }
}
