import { ok, UcpMessage } from '../../common/envelope/envelope';
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import { DomainError } from '../../common/errors/errors';
import { paymentHandlers } from '../../common/envelope/payment-handlers';
import { cny } from '../../common/money';
import { toPlus8 } from '../../common/time';
import { CheckoutSessionEntity } from '../checkout-session.entity';
import { CheckoutStatus, sessionExpiresAt } from '../checkout.rules';
import type { CheckoutSessionResponse, SessionFulfillmentView, SessionLineView } from './checkout.responses';

/** The one place a checkout session becomes UCP JSON (docs/contract/). */
export const CHECKOUT_CAPS = ['com.example.svc.order'];

/** The session as the API shows it (UCP checkout shape), envelope included. */
export function renderSession(row: CheckoutSessionEntity, base: string): CheckoutSessionResponse {
  const lineItems = row.lineItems.map((l): SessionLineView => {
    const amount = l.unit_price_fen === null ? null : l.unit_price_fen * l.quantity;
    return {
      id: l.id,
      // What the service cannot know about an unknown item (title, price) is left out; its message says why.
      item: {
        id: l.item_id,
        ...(l.title === null ? {} : { title: l.title }),
        ...(l.unit_price_fen === null ? {} : { price: cny(l.unit_price_fen) }),
        quantity_unit: l.unit,
      },
      quantity: l.quantity,
      quantity_unit: { unit: l.unit, ...(l.contains ? { contains: l.contains } : {}) },
      totals: amount === null ? [] : [{ type: 'subtotal', amount }, { type: 'total', amount }],
    };
  });
  const view: ResponseBody<CheckoutSessionResponse> = {
    id: row.id,
    status: row.status as CheckoutStatus,
    currency: 'CNY',
    namespace: row.namespace,
    line_items: lineItems,
    // Stored as the request gave it, after the DTO checked it (checkout.dto.ts).
    fulfillment: (row.fulfillment as SessionFulfillmentView | null) ?? { methods: [] },
    totals: [
      { type: 'subtotal', amount: row.totalFen },
      { type: 'total', amount: row.totalFen },
    ],
    links: [{ type: 'self', url: `${base}/ucp/v1/checkout-sessions/${encodeURIComponent(row.id)}` }],
    expires_at: toPlus8(sessionExpiresAt(row.pricedAt ?? row.createdAt ?? new Date())),
    created_at: toPlus8(row.createdAt ?? new Date()),
    updated_at: toPlus8(row.updatedAt ?? new Date()),
  };
  if (row.status === 'requires_escalation') view.continue_url = `${base}/ucp/v1/approvals?status=pending`;
  if (row.status === 'completed') {
    view.order = { id: row.id, label: `PO ${row.id}`, permalink_url: `${base}/ucp/v1/orders/${encodeURIComponent(row.id)}` };
  }
  const body: CheckoutSessionResponse = ok({ ...view, messages: row.messages as unknown as UcpMessage[] }, { capabilities: CHECKOUT_CAPS });
  body.ucp.payment_handlers = paymentHandlers();
  return body;
}

/** The session without envelope and messages: the body an error envelope carries beside its own messages. */
export function sessionBody(row: CheckoutSessionEntity, base: string): ResponseBody<CheckoutSessionResponse> {
  const { ucp: _u, messages: _m, ...rest } = renderSession(row, base);
  void _u;
  void _m;
  return rest;
}

/**
 * The controller's one rendering of a checkout operation: the session it answers, or, when it is refused, the
 * refusal with the session it is about beside the envelope. Services return and attach rows; only this renders.
 */
export async function renderAtEdge(base: string, work: () => Promise<CheckoutSessionEntity>): Promise<CheckoutSessionResponse> {
  try {
    return renderSession(await work(), base);
  } catch (err) {
    if (err instanceof DomainError && err.subject instanceof CheckoutSessionEntity) throw err.with({ body: sessionBody(err.subject, base) });
    throw err;
  }
}
