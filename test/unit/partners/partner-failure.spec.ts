import { DomainError, Errors } from '../../../src/common/errors/errors';
import { PartnerError } from '../../../src/partners/adapter.types';
import { failureReason, partnerFailure } from '../../../src/partners/partner-failure';

/** The one mapping of a failed partner call to a domain error. */
describe('partnerFailure', () => {
  const refusedOrder = (e: PartnerError) => Errors.supplierRejected(e.reason);

  it('a refusal is what the call says it is; without `refused` it is upstream_unreachable', () => {
    const no = new PartnerError('rejected', 'acme-supply', 'out of stock', 409);
    expect(partnerFailure(no, { who: 'the supplier acme-supply', refused: refusedOrder })).toMatchObject({ code: 'supplier_rejected', message: 'the supplier refused the order: out of stock' });
    expect(partnerFailure(no, { who: 'the catalog of acme-supply' })).toMatchObject({
      code: 'upstream_unreachable',
      message: 'the catalog of acme-supply could not be reached: rejected: out of stock',
    });
    // `refused` may decline (e.g. only a 404 means "unknown here"): the failure is then upstream_unreachable.
    expect(partnerFailure(no, { who: 'x', refused: () => undefined }).code).toBe('upstream_unreachable');
  });

  it('any other partner failure is upstream_unreachable, naming who and why; a DomainError passes through', () => {
    const down = new PartnerError('unreachable', 'acme-machine', 'timeout after 10000 ms');
    const e = partnerFailure(down, { who: 'the machine platform acme-machine', refused: refusedOrder });
    expect(e).toMatchObject({ code: 'upstream_unreachable', message: 'the machine platform acme-machine could not be reached: unreachable: timeout after 10000 ms' });
    expect(e.messages[0].severity).toBe('recoverable');
    const refusal = Errors.namespaceUnsupported('beta-supply', 'it is planned, not live');
    expect(partnerFailure(refusal, { who: 'x' })).toBe(refusal);
  });

  it('a defect (not a partner answer) is upstream_unreachable, or returned as it is with defects: rethrow', () => {
    const bug = new TypeError('x is undefined');
    expect(partnerFailure(bug, { who: 'acme' })).toMatchObject({ code: 'upstream_unreachable', message: 'acme could not be reached: x is undefined' });
    expect(partnerFailure(bug, { who: 'acme', defects: 'rethrow' })).toBe(bug);
    expect(partnerFailure(new PartnerError('malformed', 'acme', 'no orderId'), { who: 'acme', defects: 'rethrow' })).toBeInstanceOf(DomainError);
  });

  it('failureReason names the kind of a partner failure', () => {
    expect(failureReason(new PartnerError('unauthorized', 'acme', 'HTTP 401'))).toBe('unauthorized: HTTP 401');
    expect(failureReason('boom')).toBe('boom');
  });
});
