/**
 * The money-claims core, pure part (no Nest, no TypeORM): every money-moving (or order-placing) step is
 *   claim with a lease → call the partner once → record the answer → recover an expired claim by READING the partner.
 * Used by checkout complete, replenishment run place (every fulfiller), restock sends, approval execution and
 * idempotency keys. One lease formula, one classification of a call's failure, one classification of a read.
 */
import { PartnerError } from '../partners/adapter.types';

/** A claim outlives a live call by this much at least. */
export const CLAIM_LEASE_MS = 2 * 60_000;

/**
 * The lease of every claim: at least CLAIM_LEASE_MS and twice the partner timeout, so a live call that waits for a
 * slow partner is never recovered (or taken over) under its feet.
 */
export function claimLeaseMs(partnerTimeoutMs: number): number {
  return Math.max(CLAIM_LEASE_MS, 2 * partnerTimeoutMs);
}

/** Is this claim past its lease? A claim without a time (made before claim times were kept) is. */
export function claimExpired(claimedAt: Date | null, now: Date, leaseMs: number): boolean {
  return claimedAt === null || now.getTime() - claimedAt.getTime() >= leaseMs;
}

/**
 * When a request refused because an attempt is still in progress should ask again (`Retry-After`, seconds): a live
 * attempt answers within one partner timeout; a dead one is settled when its lease ends. So the time left on the
 * lease, at most one partner timeout, at least 1 s.
 */
export function retryAfterSeconds(claimedAt: Date | null, now: Date, leaseMs: number, partnerTimeoutMs: number): number {
  const left = claimedAt === null ? 0 : claimedAt.getTime() + leaseMs - now.getTime();
  return Math.max(1, Math.min(Math.ceil(left / 1000), Math.ceil(partnerTimeoutMs / 1000)));
}

/** What a partner failure was, as far as the core needs to know. */
export interface PartnerFailure {
  kind: 'unreachable' | 'rejected' | 'unauthorized' | 'malformed' | 'other';
  /** The HTTP status the partner answered, when it answered. */
  httpStatus?: number;
  /** The partner said clearly that the reference does not exist (404 with an `{ok:false}` body). */
  refUnknown?: boolean;
}

/** A partner failure with its reason (for messages and events) and the error's own message (for logs). */
export type Failure = PartnerFailure & { reason: string; message: string };

export function failureOf(err: unknown): Failure {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof PartnerError) return { kind: err.kind, httpStatus: err.httpStatus, refUnknown: err.refUnknown, reason: err.reason, message };
  return { kind: 'other', reason: message, message };
}

/**
 * What recovery does with a READ of the partner for a claim whose answer was never recorded:
 * - the order exists → `placed` (record it; nothing is sent again);
 * - a clear "this ref does not exist" (404 with `{ok:false}`) → `not_placed` (release the hold; a new call may be made);
 * - anything else (429, 408, 409, another 4xx, 5xx, timeout, reset, malformed, partner gone) → `unknown`: keep the
 *   amount held, send nothing, read again later. An ambiguous answer never releases money or permits a second order.
 */
export type ReadOutcome = 'placed' | 'not_placed' | 'unknown';
export function readOutcome(read: { found: true } | { failed: PartnerFailure }): ReadOutcome {
  if ('found' in read) return 'placed';
  return read.failed.refUnknown === true ? 'not_placed' : 'unknown';
}

/**
 * What a failed money call means: `refused` (the partner answered a refusal: nothing was ordered, the hold is
 * released) or `uncertain` (no usable answer: the order may exist, the amount stays counted as uncertain).
 */
export type CallFailure = 'refused' | 'uncertain';
export function callFailure(f: PartnerFailure): CallFailure {
  return f.kind === 'rejected' ? 'refused' : 'uncertain';
}

/** What one recovery pass did. */
export interface RecoveryTally {
  checked: number;
  placed: number;
  released: number;
  left: number;
}

/** Adds one recovered claim's outcome (`moved`: settled by someone else meanwhile) to a pass. */
export function tally(t: RecoveryTally, outcome: ReadOutcome | 'moved'): RecoveryTally {
  return {
    checked: t.checked + 1,
    placed: t.placed + (outcome === 'placed' ? 1 : 0),
    released: t.released + (outcome === 'not_placed' ? 1 : 0),
    left: t.left + (outcome === 'unknown' ? 1 : 0),
  };
}
