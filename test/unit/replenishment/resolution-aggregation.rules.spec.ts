import fc from 'fast-check';
import { aggregateBySupplier, SlotNeed } from '../../../src/replenishment/plan/aggregation.rules';
import type { RunLine } from '../../../src/replenishment/runs/replenishment-run.entity';
import { chooseSupplier, SupplyOffer } from '../../../src/replenishment/supply-resolution/resolution.rules';
import { allocateOrders, checkoutLines, contractLines, purchaseOrdersOutcome, runCheckoutId, runOrders } from '../../../src/replenishment/runs/run-lines.rules';

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

describe('run lines ↔ supplier orders', () => {
  const line = (slot_id: string, quantity_each: number, supply?: RunLine['supply']): RunLine => ({
    slot_id,
    location: slot_id.split('-')[0],
    item: { id: `acme-machine:${slot_id}` },
    vendor_sku: 'COLA',
    title: 'Cola',
    unit: 'BX',
    contains: 24,
    quantity: Math.ceil(quantity_each / 24),
    quantity_each,
    ordered_each: Math.ceil(quantity_each / 24) * 24,
    unit_price_fen: 4800,
    cost_estimate_fen: Math.ceil(quantity_each / 24) * 4800,
    stock: 0,
    capacity: null,
    target: quantity_each,
    ...(supply ? { supply } : {}),
  });
  const acme = { item: { id: 'acme-supply:COLA' }, namespace: 'acme-supply', vendor_sku: 'COLA', via: 'vendor', ordered_from: 'acme-supply' };

  it('allocates one box over two slots: shares of units and cost add up to the order', () => {
    const { lines, orders, totalFen } = allocateOrders([line('M1-A', 10, acme), line('M2-A', 10, acme)], 'acme-supply');
    expect(totalFen).toBe(4800);
    expect(orders).toHaveLength(1);
    expect(lines.map((l) => [l.ordered_each, l.cost_estimate_fen])).toEqual([
      [10, 2000],
      [14, 2800],
    ]);
  });

  it('sends the supplier its own vendor sku, and the simulated supplier stand-ins by full supply id', () => {
    const own = runOrders([line('M1-A', 30, acme)], 'x');
    expect(own.flatMap(contractLines)).toEqual([{ vendorSku: 'COLA', quantity: 2, unit: 'pack' }]);
    const sim = runOrders([line('M1-A', 30, { ...acme, ordered_from: 'sim-supply' })], 'sim-supply');
    expect(sim.flatMap(contractLines)).toEqual([{ vendorSku: 'acme-supply:COLA', quantity: 2, unit: 'pack' }]);
    // A run stored before resolution: its lines are the supplier's own goods.
    expect(runOrders([line('M1-A', 5)], 'sim-supply').flatMap(contractLines)).toEqual([{ vendorSku: 'COLA', quantity: 1, unit: 'pack' }]);
    expect(checkoutLines(own[0])).toEqual([{ item: { id: 'acme-supply:COLA' }, quantity: 2, quantity_unit: { unit: 'BX' } }]);
    expect(runCheckoutId('run-1', 'acme-supply')).toBe('run-1.acme-supply');
  });

  it('an interrupted supply-checkout place: all completed → placed; one in progress or uncertain → unknown; else not placed', () => {
    const po = (status: string | null, uncertain = false) => ({ status, uncertain });
    expect(purchaseOrdersOutcome([po('completed'), po('completed')])).toBe('placed');
    expect(purchaseOrdersOutcome([po('completed'), po('complete_in_progress')])).toBe('unknown');
    expect(purchaseOrdersOutcome([po('completed'), po('ready_for_complete', true)])).toBe('unknown');
    expect(purchaseOrdersOutcome([po('completed'), po('ready_for_complete')])).toBe('not_placed');
    expect(purchaseOrdersOutcome([po('completed'), po(null)])).toBe('not_placed');
    expect(purchaseOrdersOutcome([])).toBe('not_placed');
  });
});
