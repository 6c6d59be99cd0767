import { markHolds, refusedItemIds } from '../../../src/replenishment/unavailable/unavailable.rules';
import { dropItems } from '../../../src/replenishment/runs/run-lines.rules';
import type { RunLine } from '../../../src/replenishment/runs/replenishment-run.entity';

describe('goods refused as unavailable', () => {
  const marked = new Date('2026-11-25T10:00:00Z');
  const after = marked.getTime() + 1000;
  const before = marked.getTime() - 1000;

  it('a mark holds until a catalog read made after it offers the good again', () => {
    expect(markHolds(marked, null)).toBe(true); // catalog unreadable
    expect(markHolds(marked, { fetchedAt: before, product: { stock: 50 } })).toBe(true); // read before the refusal
    expect(markHolds(marked, { fetchedAt: after, product: { stock: 0 } })).toBe(true);
    expect(markHolds(marked, { fetchedAt: after, product: undefined })).toBe(true);
    expect(markHolds(marked, { fetchedAt: after, product: { stock: 1 } })).toBe(false);
  });

  it('reads the refused items from a session\'s item_unavailable messages', () => {
    const lines = [{ item_id: 'acme-supply:COLA' }, { item_id: 'acme-supply:TEA' }];
    const messages = [
      { code: 'item_unavailable', path: '$.line_items[1].item.id' },
      { code: 'item_unavailable', path: '$.line_items[7].item.id' }, // no such line
      { code: 'invalid', path: '$.line_items[0].item.id' },
      { code: 'item_unavailable' },
    ];
    expect(refusedItemIds(messages, lines)).toEqual(['acme-supply:TEA']);
    expect(refusedItemIds([], lines)).toEqual([]);
  });

  it('drops every slot line of a refused good and keeps the rest', () => {
    const line = (slot: string, item: string) => ({ slot_id: slot, supply: { item: { id: item }, namespace: 'acme-supply', vendor_sku: 'x', via: 'vendor', ordered_from: 'acme-supply' } }) as unknown as RunLine;
    const lines = [line('s1', 'acme-supply:TEA'), line('s2', 'acme-supply:COLA'), line('s3', 'acme-supply:TEA')];
    const { keep, dropped } = dropItems(lines, ['acme-supply:TEA']);
    expect(keep.map((l) => l.slot_id)).toEqual(['s2']);
    expect(dropped.map((l) => l.slot_id)).toEqual(['s1', 's3']);
  });
});
