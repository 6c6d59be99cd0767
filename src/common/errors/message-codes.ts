import { ALL_ERROR_CODES, ErrorCode } from './error-codes';

/**
 * The closed list of codes of messages that ride along with data instead of refusing a request: warnings, and the
 * per-line problems a checkout session carries until they are fixed. Each with what it says, for docs/adr/0002-messages-and-severities.md
 * and the OpenAPI description of `messages[].code`. A message may also carry an error code (ERROR_CODES), for
 * example a sync that answers 200 with an `upstream_unreachable` per machine it could not read.
 */
export const NOTE_CODES = {
  price_derived: 'the supplier quotes only the box; the each price is derived from it and settlement follows its statement',
  order_uncertain: 'the supplier did not answer a complete usably; the order may exist, and completing again sends the same ref',
  order_not_placed: 'recovery found that an interrupted complete placed nothing; the session is ready to complete again',
  catalog_unavailable: 'a supplier catalog could not be read for the plan; goods only it sells show no supplier',
  stale_data: 'the data shown was read from a stored copy that may be behind (a ledger or supplier could not be read)',
  partner_data_refused: 'a partner record was refused at the edge (a malformed amount, id or quantity) and left out',
  non_conforming_record: "a supplier catalog record did not conform to the partner contract and was left out",
  unresolved_sku: "an alias points at a good its supplier no longer carries, or that could not be checked; it is kept",
  not_carried: 'a good no supplier carries today, so the plan cannot order it',
  unknown_state: 'a partner reported a status this service does not know; it is shown as processing',
  external_ref_missing: "a machine platform accepted a binding restock without returning its own order number",
  restock_recovered: "a restock request's answer was read on the platform's GET /restock/{ref} after an interrupted send; nothing was sent again",
  restock_unconfirmed: 'an interrupted restock recommendation whose platform cannot be asked whether it received it; it is never sent again',
  namespace_misconfigured: 'a configured partner answers namespace_unsupported for its own namespace',
  ucp_agent_malformed: 'the UCP-Agent header could not be read; the request was served without it',
  item_unavailable: 'a checkout line names a good the supplier does not sell now',
  invalid_quantity: "a checkout line's quantity is not a multiple of the good's order increment",
  hard_no_go: 'a checkout line names a vendor or good on the hard no-go list; the session cannot be completed',
  approval_rejected: 'the owner rejected the approval this checkout waited for; change the order (lines or fulfillment) to ask again',
  session_expired: "a checkout session's prices are older than its expires_at; update it (PUT) to price it again",
  price_recovered: "a price change retried after its first attempt's process died: the change was found applied (the service's record or the platform) and is answered; nothing was sent again",
  price_superseded: 'a price change retried after its first attempt died was superseded by a later acknowledged change; it was not sent again',
  over_delivered: "a receipt brought more units than the run's line ordered; the excess beyond the order was not booked (a depot count books it)",
} as const satisfies Record<string, string>;

export type NoteCode = keyof typeof NOTE_CODES;

/** Every code a message of this service may carry. */
export type MessageCode = ErrorCode | NoteCode;

export const ALL_NOTE_CODES = Object.keys(NOTE_CODES) as NoteCode[];

export function isMessageCode(code: string): code is MessageCode {
  return Object.prototype.hasOwnProperty.call(NOTE_CODES, code) || (ALL_ERROR_CODES as string[]).includes(code);
}
