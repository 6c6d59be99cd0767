import { DomainError } from '../../../src/common/errors/errors';
import { toSlotRows } from '../../../src/inventory/inventory.rules';
import { renderStockItem } from '../../../src/inventory/api/live-inventory.view';
import { decodeIdCursor, encodeIdCursor, likePattern, purgeCounts, validateProfile } from '../../../src/locations/locations.rules';
import { decodeCursor, encodeCursor, tradeStatusFilter } from '../../../src/orders/orders.rules';
import { isStale, ledgerWindow, mapLimit, salesWindowDays, tickOf } from '../../../src/sync/sync.rules';

describe('sync rules', () => {
  it('every instance computes the same tick for a period', () => {
    expect(tickOf(299_999, 300_000)).toBe(0);
    expect(tickOf(300_000, 300_000)).toBe(1);
  });
  it('the scheduled ledger window is the last 3 hours', () => {
    expect(ledgerWindow(10 * 3_600_000, 3 * 3_600_000)).toEqual({ fromMs: 7 * 3_600_000, toMs: 10 * 3_600_000 });
  });
  it('stale when never synced, when the last sync failed, or after 15 minutes', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    expect(isStale(null, now).stale).toBe(true);
    expect(isStale({ lastSuccessAt: new Date(now - 60_000), lastFailureAt: null }, now).stale).toBe(false);
    expect(isStale({ lastSuccessAt: new Date(now - 16 * 60_000), lastFailureAt: null }, now).stale).toBe(true);
    expect(isStale({ lastSuccessAt: new Date(now - 120_000), lastFailureAt: new Date(now - 60_000) }, now).stale).toBe(true);
    expect(isStale({ lastSuccessAt: new Date(now - 60_000), lastFailureAt: new Date(now - 120_000) }, now).stale).toBe(false);
  });
  it('sales window: integer, at least 21, default 30', () => {
    expect(salesWindowDays(undefined)).toEqual({ ok: true, days: 30 });
    expect(salesWindowDays(21)).toEqual({ ok: true, days: 21 });
    expect(salesWindowDays(20).ok).toBe(false);
    expect(salesWindowDays(21.5).ok).toBe(false);
    expect(salesWindowDays('30').ok).toBe(false);
  });
  it('mapLimit keeps at most N in flight, keeps order and reports failures per item', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapLimit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 3, async (n) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      if (n === 4) throw new Error('four');
      return n * 2;
    });
    expect(peak).toBe(3);
    expect(out.map((o) => (o.ok ? o.value : 'x'))).toEqual([2, 4, 6, 'x', 10, 12, 14, 16, 18, 20]);
  });
});

describe('orders rules', () => {
  it('trade_status defaults to settled; all means no filter', () => {
    expect(tradeStatusFilter(undefined)).toBe('settled');
    expect(tradeStatusFilter('all')).toBeNull();
    expect(tradeStatusFilter('refunded')).toBe('refunded');
  });
  it('cursors round-trip and foreign text is refused', () => {
    const c = { k: 'taken' as const, t: '2026-11-20T02:00:00.123456Z', id: 'O-1' };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
    expect(decodeCursor('not a cursor!')).toBeNull();
    expect(decodeCursor(Buffer.from('["taken","yesterday","x"]').toString('base64url'))).toBeNull();
    expect(decodeCursor(Buffer.from('{"a":1}').toString('base64url'))).toBeNull();
  });
});

describe('locations rules', () => {
  it('accepts the six profile fields and refuses others with the path', () => {
    expect(validateProfile({ city: 'Shanghai', floor: 3, spot: null })).toEqual({ city: 'Shanghai', floor: 3, spot: null });
    expect(() => validateProfile({ colour: 'red' })).toThrow(DomainError);
    expect(() => validateProfile({ city: { nested: true } })).toThrow(expect.objectContaining({ messages: [expect.objectContaining({ path: '$.profile.city' })] }));
    expect(() => validateProfile([])).toThrow();
  });
  it('counts purged profile fields, context entries and telemetry rows', () => {
    expect(purgeCounts({ city: 'x', floor: null, spot: 'y' }, { amenities: ['wifi', 'atm'] }, 60)).toEqual({ profile: 2, context: 2, telemetry: 60 });
  });
  it('search text is literal and cursors round-trip', () => {
    expect(likePattern('50%_off')).toBe('%50\\%\\_off%');
    expect(decodeIdCursor(encodeIdCursor('loc.1_A-b'))).toBe('loc.1_A-b');
    expect(decodeIdCursor('!!')).toBeNull();
  });
});

describe('inventory rules', () => {
  const item = (vendorSku: string, over = {}) => ({ vendorSku, title: 't', priceFen: 100, stock: 1, barcode: null, slotId: null, capacity: null, ...over });
  it('slot id is <location>-<vendor_sku> and the partner slot id is a label', () => {
    const r = toSlotRows('m-1', 'acme-machine', [item('A1', { slotId: 'S07', capacity: 10, barcode: '6901234567892' })], []);
    expect(r.rows[0]).toMatchObject({ id: 'm-1-A1', sku_id: 'acme-machine:A1', partner_slot_id: 'S07', capacity: 10, barcode: '6901234567892' });
    expect(r.canRemove).toBe(true);
  });
  it('keeps the first of a duplicated sku and protects refused records from removal', () => {
    const r = toSlotRows('m-1', 'n-machine', [item('A'), item('A', { stock: 9 })], [{ index: 2, id: 'B', reason: 'bad' }]);
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0].stock).toBe(1);
    expect(r.duplicates).toEqual(['A']);
    expect(r.keepIds).toEqual(['m-1-B']);
    expect(toSlotRows('m-1', 'n-machine', [], [{ index: 0, reason: 'no id' }]).canRemove).toBe(false);
  });
  it('renders a stock item with typed barcodes', () => {
    expect(renderStockItem('n-machine', item('A', { barcode: '6901234567892' }))).toEqual({
      sku_id: 'n-machine:A',
      vendor_sku: 'A',
      title: 't',
      barcodes: [{ type: 'ean', value: '6901234567892' }],
      price: { amount: 100, currency: 'CNY' },
      stock: 1,
    });
  });
});
