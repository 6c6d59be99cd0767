/**
 * The checkout session status chain (spec "States and transitions") and the evaluation of a session's readiness,
 * as pure functions: no Nest, no TypeORM, no I/O.
 */
import { message, UcpMessage } from '../common/envelope/envelope';
import { DomainError } from '../common/errors/errors';
import type { BudgetOutcome } from '../guards/guard.rules';
import { stateMachine } from '../common/state-machine.rules';

/** The spend ledger's source of checkout orders (ref = session id). */
export const CHECKOUT_SPEND_SOURCE = 'checkout';

export const CHECKOUT_STATUSES = ['incomplete', 'requires_escalation', 'ready_for_complete', 'complete_in_progress', 'completed', 'canceled'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** What happens to a session besides evaluation: cancel, the complete claim, and the supplier's answer. */
export type CheckoutTrigger = 'cancel' | 'claim' | 'placed' | 'refused' | 'unreachable';

/** Lines, fulfillment and approvals may change (and the session be re-evaluated) only in these states. */
export const EDITABLE_STATUSES: readonly CheckoutStatus[] = ['incomplete', 'requires_escalation', 'ready_for_complete'];

/**
 * Every legal status move of a session. Evaluation moves between the editable states; the claim takes a ready
 * session to complete_in_progress, which the supplier's answer ends (completed, or ready_for_complete again).
 * An acceptance the supplier reports late (after the claim's lease, or on recovery of an uncertain order) is a
 * fact: it completes the session from any state but completed.
 */
export const CHECKOUT_MACHINE = stateMachine<CheckoutStatus>('checkout session', {
  incomplete: [...EDITABLE_STATUSES, 'canceled', 'completed'],
  requires_escalation: [...EDITABLE_STATUSES, 'canceled', 'completed'],
  ready_for_complete: [...EDITABLE_STATUSES, 'canceled', 'complete_in_progress', 'completed'],
  complete_in_progress: ['completed', 'ready_for_complete'],
  completed: [],
  canceled: ['completed'],
});

const TRIGGERED: Record<CheckoutTrigger, { from: readonly CheckoutStatus[]; to: CheckoutStatus }> = {
  cancel: { from: EDITABLE_STATUSES, to: 'canceled' },
  claim: { from: ['ready_for_complete'], to: 'complete_in_progress' },
  placed: { from: ['complete_in_progress'], to: 'completed' },
  // The supplier refused or could not be reached: back to ready_for_complete, so it can be retried by a person.
  refused: { from: ['complete_in_progress'], to: 'ready_for_complete' },
  unreachable: { from: ['complete_in_progress'], to: 'ready_for_complete' },
};

/** The next status, or null when the trigger is not allowed from `from`. */
export function nextStatus(from: CheckoutStatus, trigger: CheckoutTrigger): CheckoutStatus | null {
  const t = TRIGGERED[trigger];
  return t.from.includes(from) ? CHECKOUT_MACHINE.move(from, t.to) : null;
}

/**
 * A session whose last complete got no usable supplier answer (timeout, 5xx): it is ready again with an
 * `order_uncertain` message, and the supplier may hold the order under its ref.
 */
export function orderUncertain(session: { status: string; messages: { code?: unknown }[] }): boolean {
  return session.status === 'ready_for_complete' && session.messages.some((m) => m.code === 'order_uncertain');
}

export function isEditable(s: CheckoutStatus): boolean {
  return EDITABLE_STATUSES.includes(s);
}

/**
 * A session in a state the operation does not accept: 409. A session still in play comes back beside the refusal
 * (its `subject`, rendered at the edge); a finished one (completed, canceled) is refused with UCP's error response
 * alone, which allows no other member (issue 29: UCP's validators read the 409 as neither an error nor a checkout).
 */
export function stateConflict(row: { id: string; status: string }): DomainError {
  const code = row.status === 'complete_in_progress' ? 'complete_in_progress' : 'invalid_state';
  if (row.status === 'completed' || row.status === 'canceled') {
    const next = row.status === 'completed' ? `; its order is ${row.id} (GET /orders/${row.id}, MCP get_order)` : '; open a new session to order again';
    return new DomainError(code, `checkout session ${row.id} is ${row.status}${next}`);
  }
  return new DomainError(code, `checkout session ${row.id} is ${row.status}`, { subject: row });
}

export interface EvaluatedLine {
  itemId: string;
  vendor: string;
  quantity: number;
  unitPriceFen: number | null;
  increment: number | null;
  /** Why the item cannot be ordered (unknown, not sold in that unit, out of stock), or null. */
  problem: string | null;
}

export type EscalationKind = 'checkout_budget' | 'checkout_probation';

export interface ApprovalFact {
  kind: string;
  status: string;
  /** The session key the approval was given for (checkout-subject.rules): an approval of another subject does not count. */
  key: string | null;
  id: string;
}

export interface EvaluationInput {
  lines: EvaluatedLine[];
  /** What keeps the fulfillment from reaching a person (fulfillment.rules.ts), each with its path; [] when complete. */
  fulfillmentProblems: UcpMessage[];
  /** Set when the lines' prices are past the session's `expires_at` (see `sessionExpiresAt`), with that time. */
  expired?: { at: string } | null;
  /** Null when the guard rules are missing or unreadable. */
  guards: {
    budget: BudgetOutcome;
    probation: boolean;
    hardNoGo: boolean[];
  } | null;
  guardProblem?: string | null;
  sessionKey: string;
  approvals: ApprovalFact[];
  /** The ids the approvals to request will get (chosen beforehand, so the message that asks for one names it). */
  newApprovalIds?: Partial<Record<EscalationKind, string>>;
}

export interface Evaluation {
  status: 'incomplete' | 'requires_escalation' | 'ready_for_complete';
  messages: UcpMessage[];
  /** Escalations that still need a new approval (none pending or approved for this session key). */
  toRequest: EscalationKind[];
}

/**
 * How long a session holds the prices it read from the supplier catalog: UCP's default checkout TTL (6 hours).
 * Each update prices the lines again and renews it.
 */
export const SESSION_TTL_MS = 6 * 60 * 60 * 1000;

/** The session's `expires_at`: when its lines were last priced plus the TTL. */
export function sessionExpiresAt(pricedAt: Date): Date {
  return new Date(pricedAt.getTime() + SESSION_TTL_MS);
}

/** The session total in fen: the sum of quantity x unit price of the priced lines. */
export function sessionTotal(lines: { quantity: number; unitPriceFen: number | null }[]): number {
  return lines.reduce((sum, l) => sum + (l.unitPriceFen === null ? 0 : l.unitPriceFen * l.quantity), 0);
}

/**
 * Where a session stands: `incomplete` while anything is missing or not orderable (each reason a message with its
 * path); then the guards: over budget or a vendor on probation needs an owner approval for exactly these lines
 * (`requires_escalation`); otherwise `ready_for_complete`.
 */
export function evaluateSession(input: EvaluationInput): Evaluation {
  const messages: UcpMessage[] = [];
  if (input.lines.length === 0) messages.push(message('missing', 'recoverable', 'the session has no line items', '$.line_items'));
  input.lines.forEach((l, i) => {
    if (l.problem) messages.push(message('item_unavailable', 'recoverable', `${l.itemId}: ${l.problem}`, `$.line_items[${i}].item.id`));
    else if (l.increment && l.quantity % l.increment !== 0) {
      messages.push(message('invalid_quantity', 'recoverable', `${l.itemId}: the quantity must be a multiple of ${l.increment}`, `$.line_items[${i}].quantity`));
    }
  });
  messages.push(...input.fulfillmentProblems);
  if (input.expired) {
    messages.push(message('session_expired', 'recoverable', `the session expired at ${input.expired.at}: its prices are no longer held; update it (PUT) to price it again`, '$.expires_at'));
  }
  if (input.guards) {
    input.guards.hardNoGo.forEach((no, i) => {
      if (no) messages.push(message('hard_no_go', 'unrecoverable', `${input.lines[i].itemId} may not be ordered (hard no-go)`, `$.line_items[${i}].item.id`));
    });
  } else {
    messages.push(message('guard_unverifiable', 'recoverable', `guard rules could not be verified (${input.guardProblem ?? 'unknown'}); the session cannot be completed until they are`, '$'));
  }
  if (messages.length || !input.guards) return { status: 'incomplete', messages, toRequest: [] };

  const needed: { kind: EscalationKind; why: string }[] = [];
  const b = input.guards.budget;
  if (!b.ok) {
    const what = b.limit === 'per_order' ? `the per-order limit of ${b.limitFen} fen` : `the ${b.limit} limit of ${b.limitFen} fen (${b.spentFen} fen already spent)`;
    needed.push({ kind: 'checkout_budget', why: `the order would pass ${what}` });
  }
  if (input.guards.probation) needed.push({ kind: 'checkout_probation', why: 'the vendor is on probation' });

  const toRequest: EscalationKind[] = [];
  for (const n of needed) {
    const mine = input.approvals.filter((a) => a.kind === n.kind && a.key === input.sessionKey);
    if (mine.some((a) => a.status === 'approved')) continue;
    const pending = mine.find((a) => a.status === 'pending');
    const rejected = mine.find((a) => a.status === 'rejected');
    if (pending) {
      messages.push(message('approval_required', 'requires_buyer_review', `${n.why}: owner approval ${pending.id} is pending`, '$'));
    } else if (rejected) {
      messages.push(message('approval_rejected', 'requires_buyer_review', `${n.why}: owner approval ${rejected.id} was rejected; change the order (lines or fulfillment) to ask again`, '$'));
    } else {
      toRequest.push(n.kind);
      const id = input.newApprovalIds?.[n.kind];
      messages.push(message('approval_required', 'requires_buyer_review', `${n.why}: ${id ? `owner approval ${id} was requested and is pending` : 'an owner approval was requested'}`, '$'));
    }
  }
  // Only escalations without an approval for these lines added messages at this point.
  return { status: messages.length ? 'requires_escalation' : 'ready_for_complete', messages, toRequest };
}
