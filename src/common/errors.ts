import { message, Severity, UcpMessage } from './envelope';

/**
 * A domain error carries the spec's code and HTTP status; the global filter renders the envelope.
 * Services throw these; they never build HTTP responses themselves.
 */
export class DomainError extends Error {
  readonly messages: UcpMessage[];
  constructor(
    readonly status: number,
    readonly code: string,
    content: string,
    opts: { path?: string; severity?: Severity; extra?: UcpMessage[]; body?: Record<string, unknown> } = {},
  ) {
    super(content);
    this.messages = [message(code, opts.severity ?? severityFor(status), content, opts.path ?? '$'), ...(opts.extra ?? [])];
    this.body = opts.body;
  }
  /** Extra top-level fields rendered beside the envelope (e.g. the unchanged checkout session). */
  readonly body?: Record<string, unknown>;
}

function severityFor(status: number): Severity {
  if (status === 409 || status === 403) return 'requires_buyer_review';
  if (status >= 500) return 'unrecoverable';
  return 'recoverable';
}

export const Errors = {
  missing: (path: string, content = `${path} is required`) => new DomainError(400, 'missing', content, { path }),
  invalid: (path: string, content: string) => new DomainError(400, 'invalid', content, { path }),
  notFound: (what: string, path = '$') => new DomainError(404, 'not_found', `${what} not found`, { path, severity: 'unrecoverable' }),
  namespaceMismatch: (path: string, content: string) => new DomainError(400, 'namespace_mismatch', content, { path }),
  namespaceUnsupported: (namespace: string, why: string, path = '$') =>
    new DomainError(400, 'namespace_unsupported', `namespace ${namespace} is not supported: ${why}`, {
      path,
      severity: 'unrecoverable',
    }),
  confirmationRequired: () =>
    new DomainError(400, 'confirmation_required', 'confirm must be the JSON boolean true', {
      path: '$.confirm',
      severity: 'requires_buyer_review',
    }),
  killSwitch: () =>
    new DomainError(409, 'kill_switch_engaged', 'the kill switch is engaged: real writes are frozen', {
      severity: 'requires_buyer_review',
    }),
  guardUnverifiable: (why: string) =>
    new DomainError(503, 'guard_unverifiable', `guard rules could not be verified (${why}); the write is refused`),
  upstreamUnreachable: (who: string, why: string) =>
    new DomainError(502, 'upstream_unreachable', `${who} could not be reached: ${why}`, { severity: 'recoverable' }),
  supplierRejected: (reason: string) =>
    new DomainError(502, 'supplier_rejected', `the supplier refused the order: ${reason}`, { severity: 'recoverable' }),
  conflict: (code: string, content: string, path = '$') =>
    new DomainError(409, code, content, { path, severity: 'requires_buyer_review' }),
  unauthorized: () => new DomainError(401, 'unauthorized', 'missing or wrong operator token', { severity: 'unrecoverable' }),
  forbidden: (content: string) => new DomainError(403, 'forbidden', content, { severity: 'unrecoverable' }),
};
