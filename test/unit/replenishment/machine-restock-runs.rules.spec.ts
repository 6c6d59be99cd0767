import { runDeliveryFromOrders, runRestockOrders, runRestockReference } from '../../../src/replenishment/runs/run.rules';

const line = (slot: string, location: string, sku: string, ordered: number, ns = 'acme-machine') => ({
  slot_id: slot,
  location,
  item: { id: `${ns}:${sku}` },
  vendor_sku: sku,
  ordered_each: ordered,
});

describe('machine-restock runs (pure)', () => {
  it('one order per location (sorted), its platform, a deterministic reference, each-units summed per good', () => {
    const lines = [line('M-2-A1', 'M-2', 'A1', 3), line('M-1-A1', 'M-1', 'A1', 4), line('M-1-A1b', 'M-1', 'A1', 2), line('G-1-X', 'G-1', 'X', 5, 'gamma-machine'), line('M-1-Z', 'M-1', 'Z', 0)];
    expect(runRestockOrders('run-1', lines)).toEqual([
      { location: 'G-1', namespace: 'gamma-machine', reference: 'run-1.G-1', line_items: [{ item: { id: 'gamma-machine:X' }, quantity: 5 }] },
      { location: 'M-1', namespace: 'acme-machine', reference: 'run-1.M-1', line_items: [{ item: { id: 'acme-machine:A1' }, quantity: 6 }] },
      { location: 'M-2', namespace: 'acme-machine', reference: 'run-1.M-2', line_items: [{ item: { id: 'acme-machine:A1' }, quantity: 3 }] },
    ]);
    expect(runRestockOrders('run-1', [...lines].reverse()).map((o) => o.reference)).toEqual(['run-1.G-1', 'run-1.M-1', 'run-1.M-2']);
    expect(runRestockReference('run-1', 'M-1')).toBe('run-1.M-1');
  });

  it('spreads what a platform delivered over the run slots of that good, each up to its order, the rest to the last', () => {
    const lines = [line('M-1-A1', 'M-1', 'A1', 4), line('M-1-A1b', 'M-1', 'A1', 2), line('M-1-B', 'M-1', 'B', 3), line('M-2-A1', 'M-2', 'A1', 5)];
    expect(
      runDeliveryFromOrders(lines, [
        { location: 'M-1', lines: [{ vendorSku: 'A1', quantity: 9 }, { vendorSku: 'Q', quantity: 1 }] },
        { location: 'M-2', lines: [{ vendorSku: 'A1', quantity: 2 }] },
      ]),
    ).toEqual([
      { slot_id: 'M-1-A1', quantity: 4 },
      { slot_id: 'M-1-A1b', quantity: 5 },
      { slot_id: 'M-1-B', quantity: 0 },
      { slot_id: 'M-2-A1', quantity: 2 },
    ]);
    // Short delivery: the first slots are filled first.
    expect(runDeliveryFromOrders(lines.slice(0, 2), [{ location: 'M-1', lines: [{ vendorSku: 'A1', quantity: 3 }] }])).toEqual([
      { slot_id: 'M-1-A1', quantity: 3 },
      { slot_id: 'M-1-A1b', quantity: 0 },
    ]);
  });
});
