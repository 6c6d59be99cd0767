import { auditChanges, type Mismatch } from '../../../src/price-audit/price-audit.rules';

const m = (slotId: string, machineFen: number, serviceFen = 350): Mismatch => ({ slotId, locationId: 'L', itemId: 'x', title: 't', machineFen, serviceFen, setAt: new Date(0) });

describe('price audit rules', () => {
  it('raises new differences and moved ones, keeps standing ones, clears agreed ones', () => {
    const r = auditChanges([m('a', 500), m('b', 600), m('c', 700)], [
      { slotId: 'a', machineFen: 500, serviceFen: 350 },
      { slotId: 'b', machineFen: 550, serviceFen: 350 },
      { slotId: 'd', machineFen: 100, serviceFen: 350 },
    ]);
    expect(r.raise.map((x) => x.slotId)).toEqual(['b', 'c']);
    expect(r.clear).toEqual(['d']);
  });
});
