import fc from 'fast-check';
import { pgTimeToPlus8, toPlus8 } from '../../../src/common/time';
import { orderTotals, renderSaleOrder } from '../../../src/orders/api/sale-order.view';
import type { StoredSale, StoredSaleLine } from '../../../src/sales/sales.repository';

const T0 = Date.UTC(2026, 10, 20, 2, 0, 0);

describe('renderSaleOrder', () => {
  const base: StoredSale = {
    id: 'O1',
    location_id: 'loc-1',
    location_name: 'Lobby',
    total_fen: '1000',
    taken_at: new Date(T0),
    settled_at: null,
    updated_at: null,
    finalized: null,
    trade_status: 'settled',
    trade_status_raw: 'PAID',
    trade_status_label: null,
    data_warnings: null,
    sort_key: '',
    lines: [
      { line_no: 1, vendor_sku: 'A', sku_id: 'n-machine:A', title: 'Cola', quantity: 2, price_fen: 300, status: 'paid' },
      { line_no: 2, vendor_sku: 'B', sku_id: 'n-machine:B', title: null, quantity: 1, price_fen: '200', status: 'refunded' },
      { line_no: 3, vendor_sku: 'C', sku_id: 'n-machine:C', title: 'Tea', quantity: 1, price_fen: 100, status: 'refund_failed' },
      { line_no: 4, vendor_sku: 'D', sku_id: 'n-machine:D', title: 'Gum', quantity: 1, price_fen: 100, status: 'cancelled' },
      { line_no: 5, vendor_sku: 'E', sku_id: 'n-machine:E', title: 'Gum', quantity: 3, price_fen: 100, status: 'unpaid' },
    ],
  };
  const iso = (t: string | Date) => new Date(t).toISOString();
  const render = (s: StoredSale) => renderSaleOrder(s, 'https://svc.example', iso);

  it('renders the line statuses and their adjustments', () => {
    const v = render(base);
    expect(v.line_items.map((l) => l.status)).toEqual(['fulfilled', 'removed', 'fulfilled', 'removed', 'processing']);
    expect(v.line_items[1].quantity).toEqual({ original: 1, total: 0, fulfilled: 0 });
    expect(v.line_items[0].quantity).toEqual({ original: 2, total: 2, fulfilled: 2 });
    expect(v.line_items[4].quantity).toEqual({ original: 3, total: 3, fulfilled: 0 });
    expect(v.line_items[1].item).toEqual({ id: 'n-machine:B', title: 'B', price: { amount: 200, currency: 'CNY' }, quantity_unit: 'EA' });
    expect(v.adjustments.map((a) => [a.type, a.status, a.line_items![0].id])).toEqual([
      ['refund', 'completed', '2'],
      ['refund_failed', 'failed', '3'],
      ['cancellation', 'completed', '4'],
    ]);
    expect(v.adjustments[0].totals).toEqual([{ type: 'total', amount: -200 }]);
  });

  it('passes timestamps and finalized only when the platform has them', () => {
    const v = render(base);
    expect(v).not.toHaveProperty('settled_at');
    expect(v).not.toHaveProperty('updated_at');
    expect(v).not.toHaveProperty('finalized');
    expect(v.taken_at).toBe(new Date(T0).toISOString());
    const w = render({ ...base, settled_at: new Date(T0 + 1), updated_at: new Date(T0 + 2), finalized: false });
    expect(w.settled_at).toBe(new Date(T0 + 1).toISOString());
    expect(w.updated_at).toBe(new Date(T0 + 2).toISOString());
    expect(w.finalized).toBe(false);
  });

  it('omits trade_status when absent but keeps trade_status_raw', () => {
    const v = render({ ...base, trade_status: null, lines: null });
    expect(v).not.toHaveProperty('trade_status');
    expect(v.trade_status_raw).toBe('PAID');
    expect(v.kind).toBe('sale');
    expect(v.permalink_url).toBe('https://svc.example/ucp/v1/orders/O1');
    expect(v.location_name).toBe('Lobby');
    expect(v.totals).toEqual([{ type: 'subtotal', amount: 1000 }, { type: 'total', amount: 1000 }]);
  });

  it('totals have one subtotal and one total, and the entries add up', () => {
    for (const [total, subtotal] of [[1000, 1000], [700, 1000], [1500, 1000], [420, 420]]) {
      const t = orderTotals(total, subtotal);
      expect(t.filter((x) => x.type === 'subtotal')).toHaveLength(1);
      expect(t.filter((x) => x.type === 'total')).toHaveLength(1);
      const sum = t.filter((x) => x.type !== 'total').reduce((n, x) => n + x.amount, 0);
      expect(sum).toBe(total);
    }
  });

  /** The driver's text for a timestamptz in a whole-hour session time zone, as PostgreSQL prints it. */
  function pgText(d: Date, zoneHours: number, micros: number): string {
    const wall = new Date(d.getTime() + zoneHours * 3600_000).toISOString();
    const frac = `${wall.slice(20, 23)}${String(micros).padStart(3, '0')}`.replace(/0+$/, '');
    const zone = `${zoneHours < 0 ? '-' : '+'}${String(Math.abs(zoneHours)).padStart(2, '0')}`;
    return `${wall.slice(0, 10)} ${wall.slice(11, 19)}${frac ? `.${frac}` : ''}${zone}`;
  }

  it('answers the same bytes for a page row (driver text, lines in any order) and a read by id (Dates, text amounts)', () => {
    const text = fc.string({ unit: 'binary', maxLength: 12 });
    const time = fc.date({ min: new Date(Date.UTC(1990, 0, 1)), max: new Date(Date.UTC(2090, 0, 1)), noInvalidDate: true });
    const line = fc.record({
      line_no: fc.integer({ min: 1, max: 20 }),
      vendor_sku: text,
      sku_id: text,
      title: fc.option(text, { nil: null }),
      quantity: fc.integer({ min: 0, max: 50 }),
      price_fen: fc.integer({ min: 0, max: 10_000_000 }),
      status: fc.constantFrom('paid', 'unpaid', 'refunded', 'refund_failed', 'cancelled', 'weird', 'toString'),
    });
    const order = fc.record({
      id: text,
      location_id: text,
      location_name: fc.option(text, { nil: null }),
      total_fen: fc.integer({ min: 0, max: 100_000_000 }),
      taken_at: time,
      settled_at: fc.option(time, { nil: null }),
      updated_at: fc.option(time, { nil: null }),
      finalized: fc.option(fc.boolean(), { nil: null }),
      trade_status: fc.option(text, { nil: null }),
      trade_status_raw: fc.option(text, { nil: null }),
      trade_status_label: fc.option(text, { nil: null }),
    });
    fc.assert(
      fc.property(order, fc.uniqueArray(line, { selector: (l) => l.line_no, maxLength: 5 }), fc.integer({ min: -12, max: 14 }), (o, lines, zone) => {
        const byId: StoredSale = {
          ...o,
          total_fen: String(o.total_fen),
          data_warnings: null,
          sort_key: '',
          lines: lines.length ? [...lines].sort((a, b) => a.line_no - b.line_no).map((l): StoredSaleLine => ({ ...l, price_fen: String(l.price_fen) })) : null,
        };
        const asText = (d: Date | null) => (d === null ? null : pgText(d, zone, 0));
        const pageRow: StoredSale = {
          ...o,
          taken_at: pgText(o.taken_at, zone, 0),
          settled_at: asText(o.settled_at),
          updated_at: asText(o.updated_at),
          data_warnings: null,
          sort_key: 'k',
          lines: lines.length ? [...lines].reverse() : null,
        };
        expect(JSON.stringify(renderSaleOrder(pageRow, 'https://svc.example', pgTimeToPlus8))).toBe(
          JSON.stringify(renderSaleOrder(byId, 'https://svc.example', toPlus8)),
        );
      }),
      { numRuns: 300 },
    );
  });
});
