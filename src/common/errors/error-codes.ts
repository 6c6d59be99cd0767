import type { Severity } from './severity';

/**
 * The closed list of error codes a DomainError may carry, each with the severity it has unless the thrower says
 * otherwise. Severities follow UCP (issue 29): `requires_buyer_review` only where a person must decide (confirm,
 * approval, kill switch); `recoverable` where the same call may succeed later or with a fixed input; `unrecoverable`
 * where repeating it cannot (a used key with another body, a resource already placed or resolved). No HTTP here: the status of each code is `statusOf` (error-status.rules.ts), read only where an answer
 * is written (the exception filter and the idempotency store). A new code is added here, to ERROR_STATUS and, when the
 * spec does not name it, to docs/adr/0001-error-codes-and-statuses.md.
 */
export const ERROR_CODES = {
  // The spec's Errors table (interface-spec.md).
  missing: 'recoverable',
  invalid: 'recoverable',
  namespace_mismatch: 'recoverable',
  confirmation_required: 'requires_buyer_review',
  request_too_large: 'recoverable',
  namespace_unsupported: 'unrecoverable',
  not_found: 'unrecoverable',
  already_placed: 'unrecoverable',
  already_delivered: 'unrecoverable',
  approval_required: 'requires_buyer_review',
  kill_switch_engaged: 'requires_buyer_review',
  supplier_rejected: 'recoverable',
  upstream_unreachable: 'recoverable',
  guard_unverifiable: 'unrecoverable',
  // Named by the contract (docs/contract/errors-and-limits.md).
  invalid_state: 'unrecoverable',
  staging_no_spend: 'unrecoverable',
  idempotency_key_mismatch: 'unrecoverable',
  idempotency_key_in_use: 'recoverable',
  // The spec's un-named rows (401, 403, 503 without a token), named by the project.
  unauthorized: 'unrecoverable',
  forbidden: 'unrecoverable',
  auth_not_configured: 'unrecoverable',
  // Added by the project (docs/adr/0001-error-codes-and-statuses.md).
  complete_in_progress: 'recoverable',
  already_exists: 'unrecoverable',
  already_resolved: 'unrecoverable',
  nothing_to_order: 'unrecoverable',
  restock_in_progress: 'recoverable',
  reference_conflict: 'unrecoverable',
  sync_in_progress: 'recoverable',
  run_superseded: 'unrecoverable',
  depot_insufficient: 'recoverable',
  upstream_rejected: 'recoverable',
  idempotency_unavailable: 'recoverable',
  not_implemented: 'unrecoverable',
  not_ready: 'recoverable',
  rate_limited: 'recoverable',
  method_not_allowed: 'unrecoverable',
  internal_error: 'unrecoverable',
} as const satisfies Record<string, Severity>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ALL_ERROR_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}

/** The severity a code carries when its thrower does not choose one. */
export function defaultSeverity(code: ErrorCode): Severity {
  return ERROR_CODES[code];
}
