import { ALL_ERROR_CODES, defaultSeverity, isErrorCode } from '../../../src/common/errors/error-codes';
import { DomainError, Errors } from '../../../src/common/errors/errors';
import { ERROR_STATUS, statusOf } from '../../../src/common/errors/error-status.rules';
import { toHttp } from '../../../src/common/errors/exception.filter';

/** The closed list of error codes, the one status table, and the filter that is its only reader. */
describe('error codes', () => {
  it('every code has an HTTP error status and a blocking severity, and the table has no other code', () => {
    for (const code of ALL_ERROR_CODES) {
      expect([code, statusOf(code) >= 400 && statusOf(code) < 600]).toEqual([code, true]);
      expect(['requires_buyer_review', 'recoverable', 'unrecoverable']).toContain(defaultSeverity(code));
    }
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...ALL_ERROR_CODES].sort());
  });

  it('keeps the statuses of the spec table', () => {
    const spec: [string, number][] = [
      ['missing', 400], ['invalid', 400], ['namespace_mismatch', 400], ['confirmation_required', 400],
      ['request_too_large', 400], ['namespace_unsupported', 400], ['unauthorized', 401], ['forbidden', 403],
      ['not_found', 404], ['already_placed', 409], ['already_delivered', 409], ['approval_required', 409],
      ['idempotency_key_mismatch', 409], ['kill_switch_engaged', 409], ['supplier_rejected', 502],
      ['upstream_unreachable', 502], ['guard_unverifiable', 503], ['auth_not_configured', 503],
    ];
    for (const [code, status] of spec) {
      expect(isErrorCode(code)).toBe(true);
      expect([code, isErrorCode(code) && statusOf(code)]).toEqual([code, status]);
    }
    expect(isErrorCode('upstream_refused')).toBe(false);
  });

  it('the filter answers a DomainError with its code\'s status, its messages and its body', () => {
    const err = Errors.conflict('already_resolved', 'approval a1 is approved').with({ body: { id: 'a1' } });
    expect(toHttp(err)).toEqual({ status: 409, messages: err.messages, body: { id: 'a1' } });
    expect(toHttp(Errors.upstreamRejected('acme-machine', 'the restock request', 'no')).status).toBe(502);
    expect(err.messages[0]).toMatchObject({ code: 'already_resolved', severity: 'unrecoverable', path: '$' });
  });

  it('takes the code\'s default severity unless the thrower chooses one; with() keeps code, severity, path and messages', () => {
    expect(Errors.notFound('location x').messages[0].severity).toBe('unrecoverable');
    expect(new DomainError('invalid_state', 'not ready', { severity: 'recoverable' }).messages[0].severity).toBe('recoverable');
    const note = Errors.invalid('$.b', 'b').messages[0];
    const e = Errors.invalid('$.a', 'a').with({ extra: [note], body: { s: 1 } });
    expect(e).toBeInstanceOf(DomainError);
    expect(e.code).toBe('invalid');
    expect(e.messages.map((m) => [m.code, m.path, m.severity])).toEqual([['invalid', '$.a', 'recoverable'], ['invalid', '$.b', 'recoverable']]);
    expect(e.body).toEqual({ s: 1 });
  });
});
