import { DomainError } from '../../../src/common/errors/errors';
import { FULFILLER_KINDS, isFulfillerKind, runFulfillerKind } from '../../../src/replenishment/fulfiller-kind';
import { RUN_FULFILLER_PROVIDERS, RunFulfillers } from '../../../src/replenishment/fulfillers/run-fulfillers';

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

describe('the fulfiller registry', () => {
  it('registers one fulfiller class per kind, each declaring its own kind', () => {
    expect(RUN_FULFILLER_PROVIDERS.map((c) => c.kind).sort()).toEqual([...FULFILLER_KINDS].sort());
    for (const c of RUN_FULFILLER_PROVIDERS) {
      expect(c.traits).toBeDefined();
      expect(c.prototype).toBeDefined();
    }
  });

  it('names the kinds having a trait, so no query or service names a kind', () => {
    expect(RunFulfillers.kindsWith('buysThroughPurchaseOrders')).toEqual(['supply_checkout']);
    expect(RunFulfillers.kindsWith('deliveredByPlatform')).toEqual(['machine_restock']);
  });

  it('a stored run of an unknown kind has no trait', () => {
    expect(RunFulfillers.runHas({ fulfillerKind: 'supply_checkout' }, 'buysThroughPurchaseOrders')).toBe(true);
    expect(RunFulfillers.runHas({ fulfillerKind: 'simulated_supplier' }, 'buysThroughPurchaseOrders')).toBe(false);
    expect(RunFulfillers.runHas({ fulfillerKind: 'SUPPLY_CHECKOUT' }, 'buysThroughPurchaseOrders')).toBe(false);
  });
});
