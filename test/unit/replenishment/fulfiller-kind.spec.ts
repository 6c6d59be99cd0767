import { DomainError } from '../../../src/common/errors/errors';
import { FULFILLER_KINDS, isFulfillerKind, runFulfillerKind } from '../../../src/replenishment/fulfiller-kind';

describe('fulfiller kinds', () => {
  it('is a closed list', () => {
    for (const k of FULFILLER_KINDS) expect(isFulfillerKind(k)).toBe(true);
    for (const v of ['', 'machine', 'SUPPLY_CHECKOUT', null, 1, undefined]) expect(isFulfillerKind(v)).toBe(false);
  });

  it('reads the kind of a stored run', () => {
    for (const k of FULFILLER_KINDS) expect(runFulfillerKind({ id: 'run-1', fulfillerKind: k })).toBe(k);
  });

  it('refuses a stored run of an unknown kind instead of taking it for a simulated-supplier run', () => {
    for (const k of ['supplier', '', 'SIMULATED_SUPPLIER']) {
      let err: unknown;
      try {
        runFulfillerKind({ id: 'run-x', fulfillerKind: k });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('internal_error');
      expect((err as DomainError).message).toContain('run-x');
    }
  });
});
