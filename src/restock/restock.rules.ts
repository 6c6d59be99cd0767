/**
 * Restock request rules (pure): spec `POST /locations/{id}/restock`.
 */
import { createHash } from 'node:crypto';
import { stateMachine } from '../common/state-machine.rules';
import { parseSkuId } from '../identifiers/identifiers';

export const RESTOCK_REASON_MAX = 100;

export type RestockStatus = 'sending' | 'failed' | 'sent' | 'pending' | 'in_progress' | 'completed' | 'cancelled';

/**
 * Every legal status move of a restock request: `sending` while the platform is called, then `failed` (may be sent
 * again), `sent` (a recommendation) or the platform's open `pending`; an open binding order follows what the
 * platform reports until it is `completed` or `cancelled`.
 */
export const RESTOCK_MACHINE = stateMachine<RestockStatus>('restock order', {
  sending: ['failed', 'sent', 'pending'],
  failed: ['sending'],
  sent: [],
  pending: ['pending', 'in_progress', 'completed', 'cancelled'],
  in_progress: ['pending', 'in_progress', 'completed', 'cancelled'],
  completed: [],
  cancelled: [],
});

export interface RestockLineInput {
  item: { id: string };
  quantity: number;
  reason?: string;
}

export type RestockProblem = { code: 'missing' | 'invalid' | 'namespace_mismatch'; path: string; text: string };

export interface RestockPlanOk {
  namespace: string;
  lines: { vendorSku: string; quantity: number; reason?: string }[];
}

/**
 * Checks the lines against the location's machine namespace: every item a machine id of that one namespace,
 * quantity an integer ≥ 1, a reason (≤ 100 characters) on every line of a recommendation.
 */
export function checkRestockLines(
  lines: RestockLineInput[],
  binding: boolean,
  locationNamespace: string,
): { ok: true; value: RestockPlanOk } | { ok: false; problem: RestockProblem } {
  let namespace: string | null = null;
  const out: RestockPlanOk['lines'] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const path = `$.line_items[${i}]`;
    const id = parseSkuId(l.item?.id);
    if (!id) return { ok: false, problem: { code: 'invalid', path: `${path}.item.id`, text: `${path}.item.id is not a sku id` } };
    if (id.role !== 'machine') {
      return { ok: false, problem: { code: 'namespace_mismatch', path: `${path}.item.id`, text: 'restock items are machine ids' } };
    }
    if (namespace !== null && id.namespace !== namespace) {
      return {
        ok: false,
        problem: { code: 'namespace_mismatch', path: `${path}.item.id`, text: 'a restock request holds one machine namespace' },
      };
    }
    namespace = id.namespace;
    if (id.namespace !== locationNamespace) {
      return {
        ok: false,
        problem: {
          code: 'namespace_mismatch',
          path: `${path}.item.id`,
          text: `the location belongs to ${locationNamespace}, not ${id.namespace}`,
        },
      };
    }
    if (!Number.isSafeInteger(l.quantity) || l.quantity < 1) {
      return { ok: false, problem: { code: 'invalid', path: `${path}.quantity`, text: 'quantity must be an integer >= 1' } };
    }
    const reason = typeof l.reason === 'string' ? l.reason : undefined;
    if (!binding && (reason === undefined || reason.trim() === '')) {
      return { ok: false, problem: { code: 'missing', path: `${path}.reason`, text: 'a recommendation (binding false) needs a reason' } };
    }
    if (reason !== undefined && reason.length > RESTOCK_REASON_MAX) {
      return { ok: false, problem: { code: 'invalid', path: `${path}.reason`, text: `reason is at most ${RESTOCK_REASON_MAX} characters` } };
    }
    out.push(reason === undefined ? { vendorSku: id.vendorSku, quantity: l.quantity } : { vendorSku: id.vendorSku, quantity: l.quantity, reason });
  }
  return { ok: true, value: { namespace: namespace!, lines: out } };
}

/** What makes two requests under one reference the same request. */
export function restockFingerprint(location: string, binding: boolean, lines: RestockPlanOk['lines']): string {
  return createHash('sha256').update(JSON.stringify({ location, binding, lines })).digest('hex');
}

/** A synced slot of the location, as the room check reads it. */
export interface RestockSlotRoom {
  id: string;
  skuId: string;
  capacity: number | null;
}

/**
 * A binding order stays within the room of the slots it fills (issue 37): per good, the units of its lines at most
 * Σ capacity of the location's slots of that good, when every one of them has a known capacity. The order is
 * executed later, after sales, so today's stock does not bound it (the plan's room rule orders past capacity − stock
 * for the same reason); an emptied slot takes its capacity, never more. A good without a synced slot, or with a slot
 * whose capacity the platform does not give, has no bound the service can check. The problem names the line where
 * the good's units pass the room.
 */
export function bindingRoomProblem(lines: RestockLineInput[], slots: readonly RestockSlotRoom[]): RestockProblem | null {
  const asked = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const id = lines[i].item.id;
    const mine = slots.filter((s) => s.skuId === id);
    if (mine.length === 0 || mine.some((s) => s.capacity === null)) continue;
    const room = mine.reduce((t, s) => t + Math.max(0, s.capacity!), 0);
    const total = (asked.get(id) ?? 0) + lines[i].quantity;
    asked.set(id, total);
    if (total > room) {
      const held = mine.map((s) => `${s.id} holds ${s.capacity}`).join(', ');
      return { code: 'invalid', path: `$.line_items[${i}].quantity`, text: `a binding restock of ${id} must fit its slot's room when emptied (${held}): at most ${room} unit(s), ${total} asked` };
    }
  }
  return null;
}
