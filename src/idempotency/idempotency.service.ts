import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { errorBody } from '../common/envelope/envelope';
import { DomainError, Errors } from '../common/errors/errors';
import { statusOf } from '../common/errors/error-status.rules';
import { MoneyClaims } from '../claims/money-claims.service';
import { IdempotencyKeysRepository, StoredKey } from './idempotency-keys.repository';
import type { CarriedWrite } from '../database/carried-write';
import { connectionLoss } from '../database/connection-loss.rules';
import { lostConnectionError } from '../common/errors/lost-connection';
import { rolledBackByLostConnection } from '../database/tx';
import { fingerprint, storesOutcome, validKey } from './idempotency.rules';

/** The key was written by a concurrent request while this one ran: its transaction is rolled back. */
class KeyWrittenMeanwhile extends Error {}

/** The key's answer carried by the operation's own insert; `settle` with whether it was written (throws when not). */
export interface CarriedAnswer extends CarriedWrite {
  settle(written: boolean): void;
}

/** How an operation writes its Idempotency-Key and answer inside its own transaction (`runInOneTransaction`). */
export interface AnswerInTransaction {
  /** Writes the key with this answer now, in the current transaction. */
  store(status: number, body: () => unknown): Promise<void>;
  /** The same write, for the operation's own insert to carry; null without a key (nothing to write). */
  carry(status: number, body: () => unknown): CarriedAnswer | null;
}

/**
 * Which attempt of a keyed request this is: `resumed` when it took over the key of a first attempt that never stored
 * its answer (its process died, past the claim's lease): the operation then answers that attempt's final outcome
 * (the completed session, the placed run, the applied prices), whether it finished or was recovered by the lease.
 */
export interface Attempt {
  resumed: boolean;
  /** When the first attempt began (its key was claimed): what it did is recorded after this. */
  startedAt?: Date;
}
const FIRST: Attempt = { resumed: false };

const NO_KEY: AnswerInTransaction = { store: async () => undefined, carry: () => null };

export interface IdempotencyScope {
  operation: string;
  resourceId: string;
  rawBody: string;
  /** The credential of the request (`operator`, `approver`, `chat:<chat_id>`): part of the fingerprint (issue 26). */
  principal?: string;
}

/**
 * Idempotency-Key handling, in PostgreSQL so it holds across instances: the first request claims the key with
 * INSERT ... ON CONFLICT DO NOTHING; a replay returns the stored status and body and calls nothing; another
 * fingerprint is 409 idempotency_key_mismatch; a key whose first request is running is 409 idempotency_key_in_use;
 * a store that cannot be read is 503.
 * An in_flight claim has a lease (the money-claims core's `claimLeaseMs`): past it, the process that claimed it is taken for dead and the
 * same request (same fingerprint) takes the key over with one conditional UPDATE (one winner across instances).
 * Every claim carries a random `claim_id`; only the current claim stores the outcome or releases the key, so a
 * late answer of a taken-over request changes nothing. The resource's own state machine (e.g. the checkout
 * session's claim) still guarantees a single supplier order.
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger(IdempotencyService.name);
  private readonly leaseMs: number;
  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly claims: MoneyClaims,
  ) {
    // The one claim lease of the money-claims core.
    this.leaseMs = claims.leaseMs;
  }

  async run<T>(
    key: string | undefined,
    scope: IdempotencyScope,
    fn: (attempt: Attempt) => Promise<{ status: number; body: T }>,
  ): Promise<{ status: number; body: T; replayed: boolean }> {
    if (key === undefined) return { ...(await fn(FIRST)), replayed: false };
    if (!validKey(key)) throw Errors.invalid('$.headers.Idempotency-Key', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    const fp = fingerprint(scope.operation, scope.resourceId, scope.rawBody, scope.principal);

    const claimId = randomUUID();
    let claimed: boolean;
    let resumed = false;
    let startedAt: Date | null = null;
    try {
      await this.keys.dropIfExpired(key);
      claimed = await this.keys.claim({ key, fingerprint: fp, operation: scope.operation, resourceId: scope.resourceId, claimId }).catch(async (err: unknown) => {
        // The claim may have committed before its answer was lost (issue 38): nothing ran under it, so it is
        // withdrawn (only this claim's row), or the key would stay in use until its lease ends.
        if (connectionLoss(err) !== 'none') await this.keys.release(key, claimId).catch(() => undefined);
        throw err;
      });
      if (!claimed) {
        startedAt = await this.takeOverStale(key, fp, claimId);
        claimed = resumed = startedAt !== null;
      }
    } catch (err) {
      throw this.unavailable(err);
    }

    if (!claimed) {
      let row: StoredKey | undefined;
      try {
        row = await this.keys.find(key);
      } catch (err) {
        throw this.unavailable(err);
      }
      if (!row) throw Errors.conflict('idempotency_key_in_use', 'this Idempotency-Key was released while it was read; send the request again');
      return this.earlierAnswer<T>(row, fp);
    }

    let outcome: { status: number; body: unknown };
    let thrown: unknown = null;
    try {
      outcome = await fn(resumed && startedAt ? { resumed, startedAt } : FIRST);
    } catch (err) {
      thrown = err;
      outcome = err instanceof DomainError ? { status: statusOf(err.code), body: { ...errorBody(err.messages), ...(err.body ?? {}) } } : { status: 500, body: null };
    }
    const lost = thrown ? lostConnectionError(thrown) : null;
    if (lost) {
      // Issue 38: the database connection died under the operation. What it committed is not known here (it may run
      // several transactions and call a partner between them), so the key is neither released (a retry would run it
      // again) nor answered: it stays claimed, and after the claim's lease a retry with the key resumes this attempt
      // and answers its final outcome, as after a crash of the process. Until then a retry is 409 in use.
      this.logger.warn(`keyed ${scope.operation} lost its database connection; its key stays claimed until its lease ends`);
      throw lost.with({ retryAfterSeconds: this.claims.retryAfter(new Date()) });
    }
    try {
      if (storesOutcome(outcome.status)) {
        await this.keys.storeOutcome(key, claimId, outcome.status, outcome.body);
      } else if (resumed) {
        // A retry of an attempt that never stored its answer (its process died): the key stays bound to that first
        // attempt, so the next retry resumes it again and answers its final outcome (never a fresh request's 409).
        await this.keys.leaveResumable(key, claimId);
      } else {
        await this.keys.release(key, claimId);
      }
    } catch (err) {
      this.logger.error(`idempotency key outcome not stored: ${(err as Error).message}`);
    }
    if (thrown) throw thrown;
    return { status: outcome.status, body: outcome.body as T, replayed: false };
  }

  /**
   * For an operation that calls no money-moving partner (checkout create; Stripe's design): nothing is written or
   * read ahead. The operation runs and writes the key with its answer last inside its own transaction, either on its
   * own (`answer.store`) or carried by the operation's own insert (`answer.carry`, one round trip for both): one commit
   * for the key, the operation and the answer. When the key is already written (a replay, another request, or a
   * concurrent one on any instance, whose insert holds the key's lock), nothing is written under it, the operation's
   * transaction rolls back, and the committed answer decides: its replay, or 409 mismatch; a key held by a
   * transaction still running is 409 in use at once. A failed operation reads the key too (a replay whose operation
   * now fails, e.g. a chosen id that exists, answers the replay). A stored failure (502) is written after the fact,
   * as `run` does. Without a key, `store` does nothing and `carry` answers null.
   */
  async runInOneTransaction<T>(
    key: string | undefined,
    scope: IdempotencyScope,
    fn: (answer: AnswerInTransaction) => Promise<{ status: number; body: T }>,
  ): Promise<{ status: number; body: T; replayed: boolean }> {
    if (key === undefined) return { ...(await fn(NO_KEY)), replayed: false };
    if (!validKey(key)) throw Errors.invalid('$.headers.Idempotency-Key', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    const written = { key, fingerprint: fingerprint(scope.operation, scope.resourceId, scope.rawBody, scope.principal), operation: scope.operation, resourceId: scope.resourceId };

    let stored: { body: unknown } | null = null;
    // A carried write whose statement failed: the key's store failed with it (the transaction rolled back).
    let carriedUnsettled = false;
    // Issue 38: one more run of the operation after its transaction was cut before its COMMIT (it rolled back).
    let rerun = true;
    const settle = (isWritten: boolean, answer: unknown) => {
      carriedUnsettled = false;
      if (!isWritten) throw new KeyWrittenMeanwhile();
      stored = { body: answer };
    };
    const answer: AnswerInTransaction = {
      store: async (status, body) => {
        const value = body();
        let inserted: boolean;
        try {
          inserted = await this.keys.insertAnswer(written, status, value, this.leaseMs / 1000);
        } catch (err) {
          throw this.unavailable(err);
        }
        settle(inserted, value);
      },
      carry: (status, body) => {
        const value = body();
        carriedUnsettled = true;
        return { ...this.keys.answerWrite(written, status, value, this.leaseMs / 1000), settle: (isWritten) => settle(isWritten, value) };
      },
    };
    for (;;) {
      stored = null;
      carriedUnsettled = false;
      try {
        const outcome = await fn(answer);
        // An operation that did not store its answer in its transaction: stored now, on its own.
        if (!stored) await answer.store(outcome.status, () => outcome.body);
        return { status: outcome.status, body: (stored as { body: unknown } | null)!.body as T, replayed: false };
      } catch (thrown) {
        const lost = connectionLoss(thrown) !== 'none' && !(thrown instanceof DomainError);
        const err = carriedUnsettled && !lost && !(thrown instanceof DomainError) ? this.unavailable(thrown) : thrown;
        // Another request with this key committed first (this one rolled back), or this one failed: a committed
        // answer under the key is the answer (a create with a chosen id that lost the race replays the winner).
        const now = await this.readLive(key).catch((readErr: unknown) => {
          throw err instanceof KeyWrittenMeanwhile ? readErr : err;
        });
        if (now) return this.earlierAnswer<T>(now, written.fingerprint);
        // The key, the operation and its answer share one transaction, and the operation calls no money-moving
        // partner: cut before its COMMIT, nothing of it committed, and running it once more is running it once.
        if (lost && rerun && rolledBackByLostConnection(thrown)) {
          rerun = false;
          this.logger.warn(`keyed ${scope.operation} lost its database connection before COMMIT (rolled back); run once more`);
          continue;
        }
        // Not committed under the key, yet not ours: a create with this key is still running (it holds the key's lock).
        if (err instanceof KeyWrittenMeanwhile) throw Errors.conflict('idempotency_key_in_use', 'the first request with this Idempotency-Key is still running', '$.headers.Idempotency-Key');
        if (err instanceof DomainError && storesOutcome(statusOf(err.code))) {
          const status = statusOf(err.code);
          await this.keys.insertAnswer(written, status, { ...errorBody(err.messages), ...(err.body ?? {}) }, this.leaseMs / 1000).catch((e: Error) => this.logger.error(`idempotency key outcome not stored: ${e.message}`));
        }
        throw err;
      }
    }
  }

  /** The answer to a request whose key is already written: its replay, or 409 mismatch / in use. */
  private earlierAnswer<T>(row: StoredKey, fp: string): { status: number; body: T; replayed: boolean } {
    if (row.fingerprint !== fp) {
      throw Errors.conflict('idempotency_key_mismatch', 'this Idempotency-Key was used for another request (operation, resource, body or credential differ)', '$.headers.Idempotency-Key');
    }
    if (row.state !== 'done') {
      throw Errors.conflict('idempotency_key_in_use', 'the first request with this Idempotency-Key is still running', '$.headers.Idempotency-Key').with({
        retryAfterSeconds: this.claims.retryAfter(row.claimed_at),
      });
    }
    return { status: row.response_status ?? 200, body: row.response_body as T, replayed: true };
  }

  private async readLive(key: string): Promise<StoredKey | undefined> {
    try {
      return await this.keys.findLive(key);
    } catch (err) {
      throw this.unavailable(err);
    }
  }

  /**
   * Takes over an in_flight claim past its lease, for the same request only (same fingerprint). One statement, so
   * of several instances retrying at once exactly one gets the row back; the others see a fresh claim (in use).
   */
  private async takeOverStale(key: string, fp: string, claimId: string): Promise<Date | null> {
    const taken = await this.keys.takeOverStale(key, fp, claimId, this.leaseMs / 1000);
    if (taken) this.logger.warn(`idempotency key taken over after its in-flight lease expired (the first request's process is presumed dead)`);
    return taken;
  }

  private unavailable(err: unknown): DomainError {
    this.logger.warn(`idempotency store unavailable: ${(err as Error).message}`);
    return new DomainError('idempotency_unavailable', 'the idempotency key store could not be read; the request was not run', {
      severity: 'recoverable',
      retryAfterSeconds: 1,
    });
  }
}
