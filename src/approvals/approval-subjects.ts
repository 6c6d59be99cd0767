/**
 * What each approval kind is about (pure): one typed subject per kind, the one place that builds it, and the key
 * approvals are looked up by. Capabilities create and read approvals through these types, never through loose
 * records (the subject is stored as jsonb and shown as given).
 */
import type { ApprovalKind } from './approval.rules';

/** A checkout escalation (budget or probation): the session, and everything it moves (issue 37). */
export interface CheckoutApprovalSubject {
  session_id: string;
  /** The supplier (its supply namespace). */
  namespace: string;
  total_fen: number;
  /** The session's key (checkout-subject.rules: supplier, lines, prices, total, fulfillment): an approval covers exactly that. */
  key: string;
  /** `title` and `unit_price_fen` since issue 37. */
  lines: { id: string; quantity: number; unit: string; title?: string | null; unit_price_fen?: number | null }[];
  /** The fulfillment methods and destinations as they were when it was asked (issue 37). */
  fulfillment?: { type: string; destinations: Record<string, unknown>[] }[];
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
  /** The machine's name and the good's title (issue 37; absent on older approvals). */
  machine?: string;
  title?: string;
}

/** One line of a run as its approval shows it: the machine, the good, the units, the estimated cost. */
export interface RunApprovalLine {
  slot_id: string;
  location: string;
  machine: string;
  item_id: string;
  title: string;
  /** Units for the slot (each); `ordered_units` with its share of the box rounding (the excess goes to the depot). */
  units: number;
  ordered_units?: number;
  /** The slot's order in the run's unit (`quantity` of `unit`, before goods are summed per supplier). */
  quantity: number;
  unit: string;
  cost_estimate_fen: number | null;
  supplier: string;
}

/** A replenishment run that passes the budget (at creation or at place): the run and everything it moves (issue 37). */
export interface ReplenishmentRunApprovalSubject {
  run_id: string;
  total_cost_fen: number;
  limit: string;
  limit_fen: number;
  spent_fen: number;
  /** Who fills it (the run's fulfiller: namespaces, comma-separated). */
  fulfiller?: string;
  /** The run's lines and their key (run lines rules): a change to the run's lines after this approval needs a new one. */
  key?: string;
  lines?: RunApprovalLine[];
  /** A supply-checkout run's purchase orders (checkout-subject.rules `purchaseKey`): only sessions of these keys are covered. */
  purchase_orders?: { supplier: string; key: string }[];
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

/** What a run's approval is about, besides the budget outcome (built by the run's approvals service). */
export interface RunSubjectParts {
  fulfiller: string;
  key: string;
  lines: RunApprovalLine[];
  purchaseOrders: { supplier: string; key: string }[];
}

/** The run's budget approval subject, from the budget outcome it failed (built here only). */
export function replenishmentRunSubject(
  runId: string,
  totalFen: number,
  outcome: { limit: string; limitFen: number; spentFen: number },
  parts: RunSubjectParts,
): ReplenishmentRunApprovalSubject {
  return {
    run_id: runId,
    total_cost_fen: totalFen,
    limit: outcome.limit,
    limit_fen: outcome.limitFen,
    spent_fen: outcome.spentFen,
    fulfiller: parts.fulfiller,
    key: parts.key,
    lines: parts.lines,
    purchase_orders: parts.purchaseOrders,
  };
}

/**
 * A stored subject read back as its kind's type. Rows are written only through these types; a row whose subject
 * lacks its key (hand-edited, or written before a field existed) reads as null rather than as a wrong id.
 */
export function readSubject<K extends ApprovalKind>(kind: K, stored: Record<string, unknown>): ApprovalSubjects[K] | null {
  return typeof stored[SUBJECT_KEY_FIELD[kind]] === 'string' ? (stored as unknown as ApprovalSubjects[K]) : null;
}
