/**
 * Restock requests on the money-claims core, pure part (no Nest, no TypeORM): what a request under a stored
 * reference does, and what the recovery of an interrupted send does with its READ of `GET /restock/{ref}`.
 */
import type { ReadOutcome } from '../claims/claim.rules';
import type { RestockStatus } from './restock.rules';

/** How a restock row's answer was obtained when it was not recorded from the platform's POST answer. */
export type RestockRecovered = 'read' | 'unconfirmed';

/**
 * What a request under a reference that is already stored does:
 * - `conflict`: another request under that reference (409 `reference_conflict`);
 * - `replay`: the stored answer, without calling the platform (even under the kill switch);
 * - `in_progress`: a live claim is calling the platform (409 `restock_in_progress`);
 * - `recover`: the call's outcome was never recorded (its sender died, or the call got no usable answer): READ the
 *   platform first, never send again;
 * - `resend`: the platform refused it, or said it does not know the reference: it may be sent again.
 */
export type StoredRequestStep = 'conflict' | 'replay' | 'in_progress' | 'recover' | 'resend';
export function storedRequestStep(row: { status: string; sameRequest: boolean; claimExpired: boolean }): StoredRequestStep {
  if (!row.sameRequest) return 'conflict';
  if (row.status === 'failed') return 'resend';
  if (row.status !== 'sending') return 'replay';
  return row.claimExpired ? 'recover' : 'in_progress';
}

/**
 * Can recovery learn from the platform whether it took this request? `GET /restock/{ref}` is the status read the
 * spec promises with `replenishment.order` ("status ... read on GET /restock/{ref}"), so it is read when the platform
 * declares that capability. A platform that only takes recommendations made no such promise: its answer (even a 404)
 * cannot tell whether it received a recommendation (docs/adr/0038-restock-requests.md).
 */
export function restockReadable(capabilities: ReadonlySet<string>): boolean {
  return capabilities.has('replenishment.order');
}

/**
 * What recovery does with an interrupted send:
 * - `accept`: the platform holds it → stored with the platform's external_ref (`pending` for an order, `sent` for a
 *   recommendation); nothing is sent again;
 * - `fail`: a clear "this ref does not exist" → `failed`, so the same reference may be sent again;
 * - `leave`: no usable answer (or the platform is no longer usable) → left `sending`, read again later;
 * - `unconfirmed`: a recommendation to a platform that cannot be asked → settled `sent` without a confirmation:
 *   never sent again, answered with `accepted: 0` and a warning (an order is never settled blind: it is `leave`).
 */
export type RestockRecoveryStep = { step: 'accept'; status: Extract<RestockStatus, 'pending' | 'sent'> } | { step: 'fail' } | { step: 'leave' } | { step: 'unconfirmed' };
export function restockRecoveryStep(binding: boolean, read: ReadOutcome | 'not_readable'): RestockRecoveryStep {
  if (read === 'not_readable') return binding ? { step: 'leave' } : { step: 'unconfirmed' };
  if (read === 'placed') return { step: 'accept', status: binding ? 'pending' : 'sent' };
  if (read === 'not_placed') return { step: 'fail' };
  return { step: 'leave' };
}

/**
 * The `accepted` a recovered request answers: the platform's own count when its POST answer was recorded; the
 * request's line count when the platform's GET showed it holds the request (the status read gives no count);
 * 0 when it could not be confirmed.
 */
export function answeredAccepted(row: { accepted: number | null; recovered: string | null; lineCount: number }): number {
  if (row.accepted !== null) return row.accepted;
  if (row.recovered === 'read') return row.lineCount;
  return 0;
}
