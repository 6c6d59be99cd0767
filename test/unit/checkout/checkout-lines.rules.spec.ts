import fc from 'fast-check';
import { mergeLineChanges } from '../../../src/checkout/checkout-lines.rules';

const BX = { item_id: 'acme-supply:COLA', quantity: 2, unit: 'BX' as const };
const EA = { item_id: 'acme-supply:WATER', quantity: 5, unit: 'EA' as const };

describe('update lines (issue 29)', () => {
  it('quantity 0 without a unit removes the line whatever its unit (the field report: a BX line)', () => {
    expect(mergeLineChanges([BX, EA], [{ itemId: 'acme-supply:COLA', quantity: 0, unit: null }], 'EA')).toEqual({ ok: true, lines: [EA] });
  });

  it('quantity 0 with a unit removes only that unit; the wrong unit is refused with what the session holds', () => {
    expect(mergeLineChanges([BX, EA], [{ itemId: 'acme-supply:COLA', quantity: 0, unit: 'BX' }], 'EA')).toEqual({ ok: true, lines: [EA] });
    const wrong = mergeLineChanges([BX], [{ itemId: 'acme-supply:COLA', quantity: 0, unit: 'EA' }], 'EA');
    expect(wrong).toEqual({ ok: false, index: 0, text: expect.stringContaining('in unit BX, not EA') });
  });

  it('removing a line the session does not hold is refused, never a silent success', () => {
    expect(mergeLineChanges([EA], [{ itemId: 'acme-supply:NOPE', quantity: 0, unit: null }], 'EA')).toMatchObject({ ok: false, text: expect.stringContaining('not in the session') });
  });

  it('adds and changes lines matched by item and unit (EA when none is named)', () => {
    expect(mergeLineChanges([BX], [{ itemId: 'acme-supply:COLA', quantity: 3, unit: null }, { itemId: 'acme-supply:COLA', quantity: 4, unit: 'BX' }], 'EA')).toEqual({
      ok: true,
      lines: [{ ...BX, quantity: 4 }, { item_id: 'acme-supply:COLA', quantity: 3, unit: 'EA' }],
    });
  });

  it('property: after a successful unit-less removal no line of that item is left', () => {
    const line = fc.record({ item_id: fc.constantFrom('a', 'b', 'c'), quantity: fc.integer({ min: 1, max: 9 }), unit: fc.constantFrom('EA', 'BX') });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), fc.constantFrom('a', 'b', 'c'), (lines, item) => {
        const r = mergeLineChanges(lines, [{ itemId: item, quantity: 0, unit: null }], 'EA');
        if (lines.some((l) => l.item_id === item)) expect(r.ok && r.lines.every((l) => l.item_id !== item)).toBe(true);
        else expect(r.ok).toBe(false);
      }),
    );
  });
});
