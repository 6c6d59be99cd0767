/** The simulated platform's ledger record of a planned order at a given time (its state follows the plan's offsets). */
import { LedgerLine, LedgerRecord } from '../adapter.types';
import { SimOrderPlan } from './mock-data';

const STATE_WORDS: Record<string, [string, string]> = {
  in_progress: ['WAIT_SETTLE', 'awaiting settlement'],
  pending_review: ['WAIT_REVIEW', 'under review'],
  settled: ['TRADE_SUCCESS', 'completed'],
  payment_failed: ['PAY_FAILED', 'payment failed'],
  refunded: ['REFUND_SUCCESS', 'refunded'],
  cancelled: ['TRADE_CLOSED', 'closed'],
};

/** The order as the platform shows it at `now`: its state follows the plan's offsets. */
export function recordAt(plan: SimOrderPlan, now: number): LedgerRecord {
  const c = plan.createdAt;
  const age = now - c;
  const taken = plan.outcome !== 'cancelled' && age >= plan.takeAfter ? c + plan.takeAfter : null;
  let state = 'in_progress';
  let lineStatus = plan.outcome === 'cancelled' || plan.outcome === 'unpaid' ? 'unpaid' : 'paid';
  let settledAt: number | null = null;
  let updatedAt = taken ?? c;
  let finalized = false;
  let raw: string | null = null;
  const settled = () => {
    state = 'settled';
    settledAt = c + plan.settleAfter;
    updatedAt = settledAt;
    finalized = true;
  };
  switch (plan.outcome) {
    case 'paid':
      if (age >= plan.settleAfter) settled();
      break;
    case 'review':
      if (age >= plan.finalAfter) {
        settled();
        settledAt = c + plan.finalAfter;
        updatedAt = settledAt;
      } else if (taken !== null) state = 'pending_review';
      break;
    case 'refunded':
    case 'refund_failed':
      if (age >= plan.settleAfter) settled();
      if (age >= plan.finalAfter) {
        updatedAt = c + plan.finalAfter;
        if (plan.outcome === 'refunded') {
          state = 'refunded';
          lineStatus = 'refunded';
        } else {
          // The refund bounced: the money stays with the operator and someone has to look at it.
          lineStatus = 'refund_failed';
          raw = 'REFUND_FAILED';
          finalized = false;
        }
      }
      break;
    case 'cancelled':
      if (age >= 60_000) {
        state = 'cancelled';
        lineStatus = 'cancelled';
        updatedAt = c + 60_000;
        finalized = true;
      }
      break;
    case 'unpaid':
      if (age >= plan.takeAfter + 60_000) {
        state = 'payment_failed';
        updatedAt = c + plan.takeAfter + 60_000;
      }
      break;
  }
  const lines: LedgerLine[] = plan.lines.map((l) => ({ ...l, status: lineStatus }));
  const [stateRaw, stateLabel] = STATE_WORDS[state];
  return {
    orderNo: plan.orderNo,
    locationId: plan.locationId,
    totalFen: plan.lines.reduce((sum, l) => sum + l.priceFen * l.quantity, 0),
    createdAt: c,
    takenAt: taken,
    settledAt,
    updatedAt,
    finalized,
    state,
    stateRaw: raw ?? stateRaw,
    stateLabel,
    lines,
  };
}
