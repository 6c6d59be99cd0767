/**
 * What each approval kind is about (pure): one typed subject per kind, the one place that builds it, and the key
 * approvals are looked up by. Capabilities create and read approvals through these types, never through loose
 * records (the subject is stored as jsonb and shown as given).
 */
import type { ApprovalKind } from './approval.rules';

/** A checkout escalation (budget or probation): the session and the line set and total it was asked for. */
export interface CheckoutApprovalSubject {
  session_id: string;
  namespace: string;
  total_fen: number;
  /** The session's line set and total (sessionKey): an approval covers exactly that. */
  key: string;
  lines: { id: string; quantity: number; unit: string }[];
}

/** A price change over the per-item cap, parked until approved. */
export interface PriceChangeApprovalSubject {
  slot_id: string;
  location: string;
  namespace: string;
  item_id: string;
  vendor_sku: string;
  current_fen: number;
  price_fen: number;
}

/** A replenishment run that passes the budget (at creation or at place). */
export interface ReplenishmentRunApprovalSubject {
  run_id: string;
  total_cost_fen: number;
  limit: string;
  limit_fen: number;
  spent_fen: number;
}

export interface ApprovalSubjects {
  checkout_budget: CheckoutApprovalSubject;
  checkout_probation: CheckoutApprovalSubject;
  price_change: PriceChangeApprovalSubject;
  replenishment_run: ReplenishmentRunApprovalSubject;
}

/** The field of each kind's subject that names what it is about (session, slot, run): approvals are found by it. */
const SUBJECT_KEY_FIELD: { [K in ApprovalKind]: keyof ApprovalSubjects[K] & string } = {
  checkout_budget: 'session_id',
  checkout_probation: 'session_id',
  price_change: 'slot_id',
  replenishment_run: 'run_id',
};

export function subjectKeyOf<K extends ApprovalKind>(kind: K, subject: ApprovalSubjects[K]): string {
  return subject[SUBJECT_KEY_FIELD[kind]] as string;
}

/** The run's budget approval subject, from the budget outcome it failed (built here only). */
export function replenishmentRunSubject(
  runId: string,
  totalFen: number,
  outcome: { limit: string; limitFen: number; spentFen: number },
): ReplenishmentRunApprovalSubject {
  return { run_id: runId, total_cost_fen: totalFen, limit: outcome.limit, limit_fen: outcome.limitFen, spent_fen: outcome.spentFen };
}

/**
 * A stored subject read back as its kind's type. Rows are written only through these types; a row whose subject
 * lacks its key (hand-edited, or written before a field existed) reads as null rather than as a wrong id.
 */
export function readSubject<K extends ApprovalKind>(kind: K, stored: Record<string, unknown>): ApprovalSubjects[K] | null {
  return typeof stored[SUBJECT_KEY_FIELD[kind]] === 'string' ? (stored as unknown as ApprovalSubjects[K]) : null;
}
