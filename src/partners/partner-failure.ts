import { DomainError, Errors } from '../common/errors/errors';
import { PartnerError } from './adapter.types';

/** A readable reason for a failed partner call (PartnerError reasons are already free of tokens). */
export function failureReason(err: unknown): string {
  if (err instanceof PartnerError) return `${err.kind}: ${err.reason}`;
  if (err instanceof DomainError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

export interface PartnerCall {
  /** Who was called, as the message names it ("the machine platform acme-machine"). */
  who: string;
  /**
   * What a refusal (`rejected`: the partner answered no) of this call is, e.g. `supplier_rejected` for a supplier
   * order, `upstream_rejected` for a machine platform write; undefined (or no `refused`) → `upstream_unreachable`.
   */
  refused?: (err: PartnerError) => DomainError | undefined;
  /** `rethrow`: an error that is not a partner's answer (a defect) is returned as it is, to surface as a 500. */
  defects?: 'rethrow';
}

/**
 * The one mapping of a failed partner call to a domain error: a DomainError passes through (e.g. a namespace
 * refusal); a refusal is `call.refused`; anything else is `upstream_unreachable`, naming who and why.
 */
export function partnerFailure(err: unknown, call: PartnerCall & { defects: 'rethrow' }): unknown;
export function partnerFailure(err: unknown, call: PartnerCall): DomainError;
export function partnerFailure(err: unknown, call: PartnerCall): unknown {
  if (err instanceof DomainError) return err;
  if (!(err instanceof PartnerError) && call.defects === 'rethrow') return err;
  const refused = err instanceof PartnerError && err.kind === 'rejected' ? call.refused?.(err) : undefined;
  return refused ?? Errors.upstreamUnreachable(call.who, failureReason(err));
}
