import { capAtCapacity } from '../../../src/replenishment/runs/run.rules';
import { bindingRoomProblem } from '../../../src/restock/restock.rules';

/** Issue 37: a binding restock stays within its slots' room (their capacity: the order is executed after sales). */
describe('binding restock room', () => {
  const slots = [
    { id: 'M-1-A1', skuId: 'acme-machine:A1', capacity: 12 },
    { id: 'M-1-B1', skuId: 'acme-machine:B1', capacity: 4 },
    { id: 'M-1-B1b', skuId: 'acme-machine:B1', capacity: 6 },
    { id: 'M-1-C1', skuId: 'acme-machine:C1', capacity: null },
  ];
  const line = (sku: string, quantity: number) => ({ item: { id: `acme-machine:${sku}` }, quantity });

  it('refuses more than the slot holds when emptied, at the line where the good passes it', () => {
    expect(bindingRoomProblem([line('A1', 100_000)], slots)).toEqual({
      code: 'invalid',
      path: '$.line_items[0].quantity',
      text: 'a binding restock of acme-machine:A1 must fit its slot\'s room when emptied (M-1-A1 holds 12): at most 12 unit(s), 100000 asked',
    });
    expect(bindingRoomProblem([line('A1', 12)], slots)).toBeNull();
    expect(bindingRoomProblem([line('A1', 7), line('B1', 1), line('A1', 6)], slots)?.path).toBe('$.line_items[2].quantity');
  });

  it('adds up the slots of one good; a good with an unknown capacity or no slot has no bound to check', () => {
    expect(bindingRoomProblem([line('B1', 10)], slots)).toBeNull();
    expect(bindingRoomProblem([line('B1', 11)], slots)?.code).toBe('invalid');
    expect(bindingRoomProblem([line('C1', 100_000), line('Z9', 100_000)], slots)).toBeNull();
    expect(bindingRoomProblem([line('C1', 1)], [...slots, { id: 'M-1-C1b', skuId: 'acme-machine:C1', capacity: 5 }])).toBeNull();
  });

  it('a machine-restock run never asks a slot for more than its capacity', () => {
    const l = (ordered: number, capacity: number | null) => ({ slot_id: 's', capacity, quantity: ordered, quantity_each: ordered, ordered_each: ordered });
    expect(capAtCapacity([l(17, 12), l(9, 20), l(30, null)])).toEqual([l(12, 12), l(9, 20), l(30, null)]);
  });
});
