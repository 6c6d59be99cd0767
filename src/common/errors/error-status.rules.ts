import { ErrorCode } from './error-codes';

/**
 * The HTTP status of every error code: the one table, read only where an answer is written (the exception filter,
 * and the idempotency store that keeps an answer's status to replay it). Domain code never names a status.
 * Complete by type: a code missing here does not compile.
 */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  missing: 400,
  invalid: 400,
  namespace_mismatch: 400,
  confirmation_required: 400,
  request_too_large: 400,
  namespace_unsupported: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  already_placed: 409,
  already_delivered: 409,
  approval_required: 409,
  kill_switch_engaged: 409,
  invalid_state: 409,
  staging_no_spend: 409,
  idempotency_key_mismatch: 409,
  idempotency_key_in_use: 409,
  complete_in_progress: 409,
  already_exists: 409,
  already_resolved: 409,
  nothing_to_order: 409,
  run_superseded: 409,
  depot_insufficient: 409,
  restock_in_progress: 409,
  reference_conflict: 409,
  rate_limited: 429,
  sync_in_progress: 409,
  internal_error: 500,
  not_implemented: 501,
  supplier_rejected: 502,
  upstream_unreachable: 502,
  upstream_rejected: 502,
  guard_unverifiable: 503,
  auth_not_configured: 503,
  idempotency_unavailable: 503,
  not_ready: 503,
};

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
