/**
 * The pure pieces of a checkout complete (no Nest, no TypeORM, no I/O): the supplier request a session becomes,
 * whether a claim still holds a session, and the note a failed supplier call leaves on it.
 */
import { message, UcpMessage } from '../../common/envelope/envelope';
import { parseSkuId } from '../../identifiers/identifiers';
import type { SupplyOrderRequest } from '../../partners/adapter.types';

/** What a session holds that its supplier order is made of. */
export interface OrderableSession {
  id: string;
  lineItems: { item_id: string; quantity: number; unit: string }[];
  fulfillment: Record<string, unknown> | null;
}

/**
 * The supplier order of a session: ref = the session id (so a later complete is the same order for the supplier),
 * each line's vendor sku (its item id was checked when the line was priced) with a box ordered as a pack, and the session's
 * first fulfillment method with its first destination (shipping when none is given).
 */
export function supplyOrderRequest(session: OrderableSession): SupplyOrderRequest {
  const method = (session.fulfillment as { methods?: { type: string; destinations?: Record<string, unknown>[] }[] } | null)?.methods?.[0];
  return {
    ref: session.id,
    lines: session.lineItems.map((l) => ({ vendorSku: parseSkuId(l.item_id)!.vendorSku, quantity: l.quantity, unit: l.unit === 'BX' ? 'pack' : 'each' })),
    fulfillment: { method: (method?.type as 'shipping' | 'pickup') ?? 'shipping', ...(method?.destinations?.[0] ? { destination: method.destinations[0] } : {}) },
  };
}

/** The same claim: a complete_in_progress session still held by the claim stamped `claimedAt`. */
export function sameClaim(row: { status: string; claimedAt: Date | null }, claimedAt: Date | null): boolean {
  return row.status === 'complete_in_progress' && (row.claimedAt?.getTime() ?? null) === (claimedAt?.getTime() ?? null);
}

/** Messages of a previous supplier outcome, replaced by the next one. */
export function withoutOutcomeNotes(messages: Record<string, unknown>[]): Record<string, unknown>[] {
  return messages.filter((x) => x.code !== 'supplier_rejected' && x.code !== 'order_uncertain' && x.code !== 'order_not_placed');
}

/**
 * The note a failed supplier call leaves on the session: a refusal (nothing ordered, ready to retry), or an
 * uncertain order (the supplier could not be reached; completing again sends the same ref).
 */
export function placementFailureNote(refused: boolean, reason: string, ref: string): UcpMessage {
  return refused
    ? message('supplier_rejected', 'recoverable', `the supplier refused the order: ${reason}; the session is ready to retry`, '$')
    : message(
        'order_uncertain',
        'requires_buyer_review',
        `the supplier could not be reached (${reason}); the order may or may not exist. Completing again sends the same ref (${ref}), which the supplier treats as the same order`,
        '$',
      );
}
