import type { ReadOutcome } from '../../claims/claim.rules';
import { stateMachine } from '../../common/state-machine.rules';
import { parseSkuId } from '../../identifiers/identifiers';
import type { ErrorCode } from '../../common/errors/error-codes';

/**
 * Replenishment run states (pure). The spec shows run → placed → delivered; the rest is decided here:
 *   awaiting_approval  created over budget; a pending `replenishment_run` approval holds it
 *   ready              may be placed (created within budget, or approved)
 *   placing            the fulfiller is being called (guards a concurrent second place)
 *   placed             the fulfiller took the order
 *   delivered          every line received (or closed short); stock rose
 *   closed             an operator closed it: what had not arrived never will (its units left on-order)
 *   rejected           its approval was rejected; never placed
 *   cancelled          cancelled before it was placed; its pending approval withdrawn, nothing sent
 */
export const RUN_STATUSES = ['awaiting_approval', 'ready', 'placing', 'placed', 'delivered', 'closed', 'rejected', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * Every legal status move of a run. `ready -> placed` directly: a late acceptance recorded after recovery had put
 * the run back to ready (the fulfiller's order exists, so it wins).
 */
export const RUN_MACHINE = stateMachine<RunStatus>('replenishment run', {
  awaiting_approval: ['ready', 'rejected', 'cancelled'],
  ready: ['awaiting_approval', 'placing', 'placed', 'cancelled'],
  placing: ['placed', 'ready'],
  placed: ['delivered', 'closed'],
  delivered: [],
  closed: [],
  rejected: [],
  cancelled: [],
});

export function isRunStatus(s: unknown): s is RunStatus {
  return typeof s === 'string' && (RUN_STATUSES as readonly string[]).includes(s);
}

export type Refusal = { code: ErrorCode; text: string } | null;

/** Why a run cannot be placed now, or null; `approvalId` is the approval an awaiting run waits on (named in the refusal). */
export function placeRefusal(status: RunStatus, approvalId: string | null = null): Refusal {
  switch (status) {
    case 'ready':
      return null;
    case 'awaiting_approval':
      return { code: 'approval_required', text: `the run waits for its replenishment_run approval${approvalId ? ` ${approvalId}` : ''}` };
    case 'rejected':
      return { code: 'invalid_state', text: 'the run was rejected and cannot be placed' };
    case 'cancelled':
      return { code: 'invalid_state', text: 'the run was cancelled and cannot be placed' };
    case 'placing':
      return { code: 'already_placed', text: 'the run is being placed' };
    case 'placed':
    case 'delivered':
    case 'closed':
      return { code: 'already_placed', text: 'the run is already placed' };
  }
}

export function receiveRefusal(status: RunStatus): Refusal {
  switch (status) {
    case 'placed':
      return null;
    case 'delivered':
      return { code: 'already_delivered', text: 'the run is already delivered' };
    case 'closed':
      return { code: 'already_delivered', text: 'the run is closed: every line was received or closed' };
    default:
      return { code: 'invalid_state', text: `the run is ${status}; only a placed run can be received` };
  }
}

/** Closing a run that will never arrive (entirely or the rest of it): only a placed run. */
export function closeRefusal(status: RunStatus): Refusal {
  if (status === 'placed') return null;
  if (status === 'delivered' || status === 'closed') return { code: 'already_delivered', text: `the run is already ${status}` };
  return { code: 'invalid_state', text: `the run is ${status}; only a placed run can be closed (a run not placed yet is cancelled)` };
}

/** Stock after a delivery: it rises by what arrived, capped at capacity when known (never lowered by the cap). */
export function stockAfterDelivery(stock: number, delivered: number, capacity: number | null): number {
  const raised = Math.max(0, stock) + delivered;
  if (capacity === null) return raised;
  return Math.max(Math.max(0, stock), Math.min(capacity, raised));
}

/** One binding restock order of a machine-restock run: one per location, to that location's machine platform. */
export interface RunRestockOrder {
  location: string;
  namespace: string;
  /** Deterministic per run and location, so a retried place never orders a location twice. */
  reference: string;
  /** Each-units per machine item (slots of one location holding the same good are summed). */
  line_items: { item: { id: string }; quantity: number }[];
}

export interface RunLineRef {
  slot_id: string;
  location: string;
  item: { id: string };
  vendor_sku: string;
  ordered_each: number;
}

export function runRestockReference(runId: string, location: string): string {
  return `${runId}.${location}`;
}

/** The restock orders that place a machine-restock run, by location (sorted), lines in each-units. */
export function runRestockOrders(runId: string, lines: RunLineRef[]): RunRestockOrder[] {
  const byLocation = new Map<string, RunRestockOrder>();
  for (const l of lines) {
    if (l.ordered_each < 1) continue;
    const namespace = parseSkuId(l.item.id)?.namespace ?? '';
    let order = byLocation.get(l.location);
    if (!order) {
      order = { location: l.location, namespace, reference: runRestockReference(runId, l.location), line_items: [] };
      byLocation.set(l.location, order);
    }
    const same = order.line_items.find((x) => x.item.id === l.item.id);
    if (same) same.quantity += l.ordered_each;
    else order.line_items.push({ item: { id: l.item.id }, quantity: l.ordered_each });
  }
  return [...byLocation.values()].sort((a, b) => (a.location < b.location ? -1 : a.location > b.location ? 1 : 0));
}

/**
 * What each line of the run received from its platform's completed orders: the units delivered for a good at a
 * location are spread over the run's slots of that good in line order, each up to what it ordered, the rest to
 * the last one. A line the platform delivered nothing for receives 0.
 */
export function runDeliveryFromOrders(
  lines: RunLineRef[],
  delivered: { location: string; lines: { vendorSku: string; quantity: number }[] }[],
): { slot_id: string; quantity: number }[] {
  const left = new Map<string, number>();
  for (const d of delivered) {
    for (const x of d.lines) {
      const key = `${d.location}\u0000${x.vendorSku}`;
      left.set(key, (left.get(key) ?? 0) + Math.max(0, Math.trunc(x.quantity)));
    }
  }
  const lastOf = new Map<string, number>();
  lines.forEach((l, i) => lastOf.set(`${l.location}\u0000${l.vendor_sku}`, i));
  return lines.map((l, i) => {
    const key = `${l.location}\u0000${l.vendor_sku}`;
    const available = left.get(key) ?? 0;
    const take = lastOf.get(key) === i ? available : Math.min(available, l.ordered_each);
    left.set(key, available - take);
    return { slot_id: l.slot_id, quantity: take };
  });
}

/**
 * An interrupted machine-restock run, from the state of its restock orders (one per location, `null` = never
 * stored): every order accepted by its platform → `placed` (nothing left to send); an order still `sending` (the
 * request in flight when the process died) → `unknown` until that order is settled by reading the platform;
 * otherwise → `not_placed`: back to `ready`, the retry replays the accepted orders and sends the rest.
 */
export function machineRunRecovery(orderStatuses: (string | null)[]): ReadOutcome {
  if (orderStatuses.some((s) => s === 'sending')) return 'unknown';
  if (orderStatuses.length > 0 && orderStatuses.every((s) => s !== null && s !== 'failed')) return 'placed';
  return 'not_placed';
}

/** The spend ledger's source of replenishment runs (ref = run id). */
export const RUN_SPEND_SOURCE = 'replenishment_run';

/** The machine platforms a run's lines are ordered from (one per location). */
export function machineNamespaces(lines: RunLineRef[]): string[] {
  return [...new Set(runRestockOrders('', lines).map((o) => o.namespace))].sort();
}

/** Cancelling a run: only before it is placed (`ready`, `awaiting_approval`); nothing has been sent then. */
export function cancelRefusal(status: RunStatus): Refusal {
  if (status === 'ready' || status === 'awaiting_approval') return null;
  if (status === 'cancelled') return { code: 'invalid_state', text: 'the run is already cancelled' };
  if (status === 'placing') return { code: 'already_placed', text: 'the run is being placed; read it again, then close it if it will never arrive' };
  if (status === 'placed' || status === 'delivered' || status === 'closed') return { code: 'already_placed', text: `the run is ${status}: close it instead if it will never arrive` };
  return { code: 'invalid_state', text: `the run is ${status} and cannot be cancelled` };
}

/**
 * A machine-restock run's lines, each at most its slot's capacity when known (issue 37): a binding order fits the
 * slot's room when emptied (restock.rules `bindingRoomProblem`), while the plan's room rule may ask for more (units
 * that would sell before the order arrives). The platform fills the slot itself: nothing goes to a depot.
 */
export function capAtCapacity<L extends { capacity: number | null; quantity: number; quantity_each: number; ordered_each: number }>(lines: readonly L[]): L[] {
  return lines.map((l) => {
    if (l.capacity === null || l.ordered_each <= l.capacity) return l;
    const cap = Math.max(0, l.capacity);
    return { ...l, quantity: Math.min(l.quantity, cap), quantity_each: Math.min(l.quantity_each, cap), ordered_each: cap };
  });
}
