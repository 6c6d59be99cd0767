import { message, UcpMessage } from '../envelope/envelope';
import { defaultSeverity, ErrorCode } from './error-codes';
import type { Severity } from './severity';

export type { ErrorCode } from './error-codes';

export interface DomainErrorOptions {
  path?: string;
  severity?: Severity;
  extra?: UcpMessage[];
  body?: Record<string, unknown>;
  /**
   * The resource the refusal is about (e.g. the unchanged checkout session), as the domain holds it: the controller,
   * which knows the request's base address, renders it beside the envelope (services never render).
   */
  subject?: object;
  /** A refusal that settles by itself (an attempt still in progress): when to ask again, sent as `Retry-After`. */
  retryAfterSeconds?: number;
}

/**
 * A domain error carries one of the closed list of codes (error-codes.ts), never an HTTP status: the global filter
 * maps the code to its status (error-status.rules.ts) and renders the envelope. Services throw these; they never
 * build HTTP responses themselves.
 */
export class DomainError extends Error {
  readonly messages: UcpMessage[];
  constructor(
    readonly code: ErrorCode,
    content: string,
    opts: DomainErrorOptions = {},
  ) {
    super(content);
    this.messages = [message(code, opts.severity ?? defaultSeverity(code), content, opts.path ?? '$'), ...(opts.extra ?? [])];
    this.body = opts.body;
    this.subject = opts.subject;
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }
  /** Extra top-level fields rendered beside the envelope (e.g. the unchanged checkout session). */
  readonly body?: Record<string, unknown>;
  readonly subject?: object;
  readonly retryAfterSeconds?: number;

  /** The same error with more messages after its own, a body beside the envelope and/or the resource it is about. */
  with(more: { extra?: UcpMessage[]; body?: Record<string, unknown>; subject?: object; retryAfterSeconds?: number }): DomainError {
    const [first, ...rest] = this.messages;
    return new DomainError(this.code, this.message, {
      severity: first.severity,
      path: first.path,
      extra: [...rest, ...(more.extra ?? [])],
      body: more.body ?? this.body,
      subject: more.subject ?? this.subject,
      retryAfterSeconds: more.retryAfterSeconds ?? this.retryAfterSeconds,
    });
  }
}

export const Errors = {
  missing: (path: string, content = `${path} is required`) => new DomainError('missing', content, { path }),
  invalid: (path: string, content: string) => new DomainError('invalid', content, { path }),
  notFound: (what: string, path = '$') => new DomainError('not_found', `${what} not found`, { path }),
  namespaceMismatch: (path: string, content: string) => new DomainError('namespace_mismatch', content, { path }),
  namespaceUnsupported: (namespace: string, why: string, path = '$') =>
    new DomainError('namespace_unsupported', `namespace ${namespace} is not supported: ${why}`, { path }),
  confirmationRequired: () => new DomainError('confirmation_required', 'confirm must be the JSON boolean true', { path: '$.confirm' }),
  killSwitch: () => new DomainError('kill_switch_engaged', 'the kill switch is engaged: real writes are frozen'),
  guardUnverifiable: (why: string) => new DomainError('guard_unverifiable', `guard rules could not be verified (${why}); the write is refused`),
  upstreamUnreachable: (who: string, why: string) => new DomainError('upstream_unreachable', `${who} could not be reached: ${why}`),
  supplierRejected: (reason: string) => new DomainError('supplier_rejected', `the supplier refused the order: ${reason}`),
  /** A machine platform refused a write (`what`): not a supplier order, so not `supplier_rejected`. */
  upstreamRejected: (who: string, what: string, reason: string) => new DomainError('upstream_rejected', `${who} refused ${what}: ${reason}`),
  /** A refusal because of the state of a resource (the conflict codes answer 409), with its code's UCP severity. */
  conflict: (code: ErrorCode, content: string, path = '$') => new DomainError(code, content, { path }),
  unauthorized: () => new DomainError('unauthorized', 'missing or wrong operator token'),
  forbidden: (content: string) => new DomainError('forbidden', content),
};
