import { FULFILLER_KINDS, isFulfillerKind } from '../../../src/replenishment/fulfiller-kind';

describe('fulfiller kinds', () => {
  it('is a closed list', () => {
    for (const k of FULFILLER_KINDS) expect(isFulfillerKind(k)).toBe(true);
    for (const v of ['', 'machine', 'SUPPLY_CHECKOUT', null, 1, undefined]) expect(isFulfillerKind(v)).toBe(false);
  });
});
