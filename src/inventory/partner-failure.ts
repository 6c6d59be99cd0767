import { DomainError, Errors } from '../common/errors';
import { PartnerError } from '../partners/adapter.types';

/** A readable reason for a failed partner call (PartnerError reasons are already free of tokens). */
export function failureReason(err: unknown): string {
  if (err instanceof PartnerError) return `${err.kind}: ${err.reason}`;
  if (err instanceof DomainError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/** The HTTP answer of a failed partner read: 502 `upstream_unreachable` (a namespace refusal passes through). */
export function toUpstreamError(err: unknown, who: string): DomainError {
  if (err instanceof DomainError) return err;
  return Errors.upstreamUnreachable(who, failureReason(err));
}
