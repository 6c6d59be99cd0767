/** The OpenAPI description of the checkout operations (texts for agent authors and dashboard developers). */
import { ApiEndpoint, describeProperty, ErrorCodes } from '../../common/envelope/api-docs';
import { CheckoutSessionResponse, PaymentBody } from './checkout.responses';
import { CheckoutLineBody, CompleteBody } from './checkout.dto';

const SESSION_INPUT: ErrorCodes = { 400: ['missing', 'invalid', 'namespace_mismatch', 'namespace_unsupported', 'request_too_large'] };

describeProperty(CompleteBody, 'confirm', {
  type: Boolean,
  enum: [true],
  required: true,
  description: 'Must be the JSON boolean `true` (a string or number is refused with 400 `confirmation_required`). Send it only after a person or your policy confirmed this purchase.',
});
describeProperty(CompleteBody, 'payment', { type: () => PaymentBody, required: false, description: 'Optional: the supplier account pays (`on_account`).' });
describeProperty(CheckoutLineBody, 'quantity', { type: 'integer', minimum: 0, description: 'Counts the unit of `quantity_unit` (boxes for BX). At least 1 on create; on update 0 removes the line.' });

const AGENT_NOTE =
  'Read `messages[]` first: `recoverable` messages name what to fix (with `path`); `requires_buyer_review` (`approval_required`) means an owner must approve in `GET /approvals` before you can complete.';

export const CheckoutDocs = {
  create: ApiEndpoint({
    operationId: 'checkout_create',
    summary: 'Open a wholesale purchase-order session',
    description: `Core. Opens a purchase order for ONE supply namespace (one vendor); nothing is spent. Lines take supply sku_ids; \`quantity_unit: {unit: BX}\` orders boxes. The guards run at once: over budget or a vendor on probation gives \`requires_escalation\` with a pending approval. ${AGENT_NOTE}`,
    headers: ['UCP-Agent', 'Idempotency-Key'],
    status: 201,
    type: CheckoutSessionResponse,
    returns: 'The new session, usually `incomplete` or `requires_escalation`.',
    errors: { ...SESSION_INPUT, 409: ['already_exists', 'idempotency_key_mismatch', 'idempotency_key_in_use'], 502: ['upstream_unreachable'], 503: ['idempotency_unavailable'] },
  }),
  get: ApiEndpoint({
    operationId: 'checkout_get',
    summary: 'Read a checkout session',
    description: `The session as it is now. A session interrupted during complete is settled here by reading the supplier's order (never ordering again). ${AGENT_NOTE}`,
    type: CheckoutSessionResponse,
    returns: 'The session.',
    errors: { 404: ['not_found'] },
  }),
  update: ApiEndpoint({
    operationId: 'checkout_update',
    summary: 'Change lines or fulfillment of a session',
    description: `Same shape as create: adds or changes lines (quantity 0 removes one) and the fulfillment destination. The guards run again; changing the lines of an approved session asks for a new approval. ${AGENT_NOTE}`,
    type: CheckoutSessionResponse,
    returns: 'The updated session (`ready_for_complete` once nothing is missing).',
    errors: { ...SESSION_INPUT, 404: ['not_found'], 409: ['invalid_state', 'complete_in_progress'], 502: ['upstream_unreachable'] },
  }),
  cancel: ApiEndpoint({
    operationId: 'checkout_cancel',
    summary: 'Cancel a session',
    description: 'Allowed from `incomplete`, `requires_escalation` and `ready_for_complete`. No supplier call is made.',
    type: CheckoutSessionResponse,
    returns: 'The session with `status: canceled`.',
    errors: { 404: ['not_found'], 409: ['invalid_state', 'complete_in_progress'] },
  }),
  complete: ApiEndpoint({
    operationId: 'checkout_complete',
    summary: 'Place the real wholesale order (spends money)',
    description:
      'Core. MONEY-MOVING: places the purchase order with the supplier, once, never retried. Requires `confirm: true` (JSON boolean). ' +
      'Refused without calling anyone when: the kill switch is engaged (409 `kill_switch_engaged`: do not loop, a person must release it); an owner approval is pending (409 `approval_required`); ' +
      'the guard rules cannot be read (503 `guard_unverifiable`); the session is not `ready_for_complete` (409 `invalid_state`, `complete_in_progress`); or, in staging, the supplier is a real partner (409 `staging_no_spend`). ' +
      'A supplier refusal is 502 `supplier_rejected` and the session stays `ready_for_complete`. An unreachable supplier is 502 `upstream_unreachable` with an `order_uncertain` message: the order may exist, so read the session again rather than completing twice (the same session id is the supplier ref, idempotent there). ' +
      'Refusals carry the unchanged session beside the message. Send an `Idempotency-Key` to make a retry of the same request replay the first answer.',
    headers: ['Idempotency-Key'],
    type: CheckoutSessionResponse,
    returns: 'The session with `status: completed` and `order` (the purchase order, readable at `GET /orders/{id}`).',
    errors: {
      400: ['confirmation_required', 'invalid', 'request_too_large'],
      404: ['not_found'],
      409: ['kill_switch_engaged', 'approval_required', 'invalid_state', 'complete_in_progress', 'staging_no_spend', 'idempotency_key_mismatch', 'idempotency_key_in_use'],
      502: ['supplier_rejected', 'upstream_unreachable'],
      503: ['guard_unverifiable', 'idempotency_unavailable'],
    },
  }),
};
