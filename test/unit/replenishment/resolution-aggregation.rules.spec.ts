import fc from 'fast-check';
import { aggregateBySupplier, SlotNeed } from '../../../src/replenishment/aggregation.rules';
import { chooseSupplier, SupplyOffer } from '../../../src/replenishment/resolution.rules';

const offer = (sku_id: string, eachPriceFen: number, via: SupplyOffer['via'] = 'vendor', over: Partial<SupplyOffer> = {}): SupplyOffer => {
  const [namespace, vendor_sku] = sku_id.split(':');
  return { sku_id, namespace, vendor_sku, via, title: vendor_sku, packSize: 12, packPriceFen: eachPriceFen * 12, eachPriceFen, ...over };
};

describe('supplier choice', () => {
  it('prefers the default supply namespace when it carries the good, even when another is cheaper', () => {
    const r = chooseSupplier([offer('beta-supply:X', 90, 'barcode'), offer('acme-supply:COLA', 200)], 'acme-supply');
    expect(r?.offer.sku_id).toBe('acme-supply:COLA');
    expect(r?.reason).toBe('default_supplier');
    expect(r?.candidates.map((c) => c.sku_id)).toEqual(['beta-supply:X', 'acme-supply:COLA']);
  });

  it('else takes the lowest each price; ties go to the stronger alias, then the id', () => {
    expect(chooseSupplier([offer('acme-supply:A', 200), offer('beta-supply:B', 150, 'manual')], 'gamma-supply')).toMatchObject({
      offer: { sku_id: 'beta-supply:B' },
      reason: 'lowest_each_price',
    });
    expect(chooseSupplier([offer('acme-supply:A', 150, 'vendor'), offer('beta-supply:B', 150, 'barcode')], null)?.offer.sku_id).toBe('beta-supply:B');
    expect(chooseSupplier([offer('beta-supply:B', 150), offer('acme-supply:A', 150)], undefined)?.offer.sku_id).toBe('acme-supply:A');
  });

  it('never uses a suggested alias or an unpriced offer; nobody sells it: null', () => {
    expect(chooseSupplier([offer('acme-supply:A', 100, 'suggested')], 'acme-supply')).toBeNull();
    expect(chooseSupplier([offer('acme-supply:A', 0)], 'acme-supply')).toBeNull();
    expect(chooseSupplier([offer('acme-supply:A', 100, 'vendor', { packPriceFen: 0 })], 'acme-supply')).toBeNull();
    expect(chooseSupplier([], 'acme-supply')).toBeNull();
    expect(chooseSupplier([offer('acme-supply:A', 100, 'suggested'), offer('beta-supply:B', 300)], 'acme-supply')?.offer.sku_id).toBe('beta-supply:B');
  });
});

const need = (slot_id: string, quantity_each: number, over: Partial<SlotNeed> = {}): SlotNeed => ({
  slot_id,
  supplier: 'acme-supply',
  item_id: 'acme-supply:COLA',
  vendor_sku: 'COLA',
  title: 'Cola',
  quantity_each,
  contains: 12,
  unit_price_fen: 4800,
  ...over,
});

describe('aggregation per supplier', () => {
  it('sums the each-units of every slot needing the good, rounds up to the box once, keeps the split', () => {
    const [o] = aggregateBySupplier([need('M1-COLA', 5), need('M2-COLA', 5), need('M3-COLA', 3)]);
    expect(o.supplier).toBe('acme-supply');
    expect(o.lines).toHaveLength(1);
    // 13 each → 2 boxes (not 3 boxes, one per slot).
    expect(o.lines[0]).toMatchObject({ unit: 'BX', contains: 12, quantity: 2, quantity_each: 13, ordered_each: 24, cost_fen: 9600 });
    expect(o.lines[0].slots).toEqual([
      { slot_id: 'M1-COLA', quantity_each: 5, ordered_each: 5, cost_fen: 2000 },
      { slot_id: 'M2-COLA', quantity_each: 5, ordered_each: 5, cost_fen: 2000 },
      { slot_id: 'M3-COLA', quantity_each: 3, ordered_each: 14, cost_fen: 5600 },
    ]);
    expect(o.total_fen).toBe(9600);
  });

  it('one order per supplier, goods sold by the piece in each, zero needs left out', () => {
    const orders = aggregateBySupplier([
      need('M1-W', 3, { supplier: 'beta-supply', item_id: 'beta-supply:W', vendor_sku: 'W', contains: 1, unit_price_fen: 100 }),
      need('M1-COLA', 0),
      need('M2-W', 4, { supplier: 'beta-supply', item_id: 'beta-supply:W', vendor_sku: 'W', contains: 1, unit_price_fen: 100 }),
      need('M2-COLA', 1),
    ]);
    expect(orders.map((o) => o.supplier)).toEqual(['acme-supply', 'beta-supply']);
    expect(orders[0].lines[0]).toMatchObject({ quantity: 1, ordered_each: 12, slots: [{ slot_id: 'M2-COLA', quantity_each: 1, ordered_each: 12, cost_fen: 4800 }] });
    expect(orders[1].lines[0]).toMatchObject({ unit: 'EA', quantity: 7, ordered_each: 7, cost_fen: 700 });
  });

  it('property: whole boxes covering the need with less than a box spare; shares add up to the order and its cost', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ q: fc.integer({ min: 0, max: 200 }), good: fc.integer({ min: 0, max: 3 }), sup: fc.integer({ min: 0, max: 2 }) }), { maxLength: 30 }),
        fc.integer({ min: 1, max: 48 }),
        (rows, pack) => {
          const needs = rows.map((r, i) =>
            need(`S${i}`, r.q, { supplier: `s${r.sup}-supply`, item_id: `s${r.sup}-supply:G${r.good}`, vendor_sku: `G${r.good}`, contains: pack, unit_price_fen: 37 * pack + 1 }),
          );
          for (const o of aggregateBySupplier(needs)) {
            expect(o.total_fen).toBe(o.lines.reduce((t, l) => t + l.cost_fen, 0));
            for (const l of o.lines) {
              expect(l.ordered_each).toBe(l.quantity * l.contains);
              expect(l.ordered_each).toBeGreaterThanOrEqual(l.quantity_each);
              expect(l.ordered_each - l.quantity_each).toBeLessThan(l.contains);
              expect(l.slots.reduce((t, s) => t + s.ordered_each, 0)).toBe(l.ordered_each);
              expect(l.slots.reduce((t, s) => t + s.cost_fen, 0)).toBe(l.cost_fen);
              for (const s of l.slots) expect(s.ordered_each).toBeGreaterThanOrEqual(s.quantity_each);
            }
          }
        },
      ),
    );
  });
});
