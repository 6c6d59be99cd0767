/**
 * Replenishment run states (pure). The spec shows run → placed → delivered; the rest is decided here:
 *   awaiting_approval  created over budget; a pending `replenishment_run` approval holds it
 *   ready              may be placed (created within budget, or approved)
 *   placing            the fulfiller is being called (guards a concurrent second place)
 *   placed             the fulfiller took the order
 *   delivered          received; stock rose
 *   rejected           its approval was rejected; never placed
 */
export const RUN_STATUSES = ['awaiting_approval', 'ready', 'placing', 'placed', 'delivered', 'rejected'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export function isRunStatus(s: unknown): s is RunStatus {
  return typeof s === 'string' && (RUN_STATUSES as readonly string[]).includes(s);
}

export type Refusal = { status: 409; code: string; text: string } | null;

export function placeRefusal(status: RunStatus): Refusal {
  switch (status) {
    case 'ready':
      return null;
    case 'awaiting_approval':
      return { status: 409, code: 'approval_required', text: 'the run waits for its replenishment_run approval' };
    case 'rejected':
      return { status: 409, code: 'invalid_state', text: 'the run was rejected and cannot be placed' };
    case 'placing':
      return { status: 409, code: 'already_placed', text: 'the run is being placed' };
    case 'placed':
    case 'delivered':
      return { status: 409, code: 'already_placed', text: 'the run is already placed' };
  }
}

export function receiveRefusal(status: RunStatus): Refusal {
  switch (status) {
    case 'placed':
      return null;
    case 'delivered':
      return { status: 409, code: 'already_delivered', text: 'the run is already delivered' };
    default:
      return { status: 409, code: 'invalid_state', text: `the run is ${status}; only a placed run can be received` };
  }
}

/** Stock after a delivery: it rises by what arrived, capped at capacity when known (never lowered by the cap). */
export function stockAfterDelivery(stock: number, delivered: number, capacity: number | null): number {
  const raised = Math.max(0, stock) + delivered;
  if (capacity === null) return raised;
  return Math.max(Math.max(0, stock), Math.min(capacity, raised));
}
