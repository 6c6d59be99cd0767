import fc from 'fast-check';
import { pgTimeToPlus8, toPlus8 } from '../../../src/common/time';
import { saleOrderJson, SalePageRow } from '../../../src/sales/sale-order.json';
import { StoredSaleLine, toSaleOrderView } from '../../../src/sales/api/sale-order.view';

/**
 * The GET /orders page renders sales straight to JSON text (issue 13); these hold it to the same bytes as
 * JSON.stringify of the view the single-order route builds, over arbitrary orders and lines.
 */
const text = fc.string({ unit: 'binary', maxLength: 12 });
const time = fc.date({ min: new Date(Date.UTC(1990, 0, 1)), max: new Date(Date.UTC(2090, 0, 1)), noInvalidDate: true });
const lineStatus = fc.constantFrom('paid', 'unpaid', 'refunded', 'refund_failed', 'cancelled', 'weird', 'toString');
const line = fc.record({
  lineNo: fc.integer({ min: 1, max: 20 }),
  vendorSku: text,
  skuId: text,
  title: fc.option(text, { nil: null }),
  quantity: fc.integer({ min: 0, max: 50 }),
  priceFen: fc.integer({ min: 0, max: 10_000_000 }),
  status: lineStatus,
});
const order = fc.record({
  id: text,
  locationId: text,
  locationName: fc.option(text, { nil: null }),
  totalFen: fc.integer({ min: 0, max: 100_000_000 }),
  takenAt: time,
  settledAt: fc.option(time, { nil: null }),
  updatedAt: fc.option(time, { nil: null }),
  finalized: fc.option(fc.boolean(), { nil: null }),
  tradeStatus: fc.option(text, { nil: null }),
  tradeStatusRaw: fc.option(text, { nil: null }),
  tradeStatusLabel: fc.option(text, { nil: null }),
});

/** The driver's text for a timestamptz in a whole-hour session time zone, as PostgreSQL prints it. */
function pgText(d: Date, zoneHours: number, micros: number): string {
  const wall = new Date(d.getTime() + zoneHours * 3600_000).toISOString();
  const frac = `${wall.slice(20, 23)}${String(micros).padStart(3, '0')}`.replace(/0+$/, '');
  const zone = `${zoneHours < 0 ? '-' : '+'}${String(Math.abs(zoneHours)).padStart(2, '0')}`;
  return `${wall.slice(0, 10)} ${wall.slice(11, 19)}${frac ? `.${frac}` : ''}${zone}`;
}

describe('saleOrderJson', () => {
  it('renders the same bytes as JSON.stringify(toSaleOrderView(...)) for any order and lines', () => {
    fc.assert(
      fc.property(order, fc.uniqueArray(line, { selector: (l) => l.lineNo, maxLength: 5 }), fc.constantFrom('https://svc.example', 'http://127.0.0.1:1'), (o, lines, base) => {
        const stored = { ...o, namespace: 'ns', dataWarnings: null };
        const expected = JSON.stringify(toSaleOrderView(stored, lines as StoredSaleLine[], { permalinkBase: base, locationName: o.locationName, toTime: toPlus8 }));
        const row: SalePageRow = {
          id: o.id,
          location_id: o.locationId,
          location_name: o.locationName,
          total_fen: String(o.totalFen),
          taken_at: o.takenAt,
          settled_at: o.settledAt,
          updated_at: o.updatedAt,
          finalized: o.finalized,
          trade_status: o.tradeStatus,
          trade_status_raw: o.tradeStatusRaw,
          trade_status_label: o.tradeStatusLabel,
          data_warnings: null,
          sort_key: '',
          lines: [...lines].reverse().map((l) => ({ line_no: l.lineNo, vendor_sku: l.vendorSku, sku_id: l.skuId, title: l.title, quantity: l.quantity, price_fen: l.priceFen, status: l.status })),
        };
        expect(saleOrderJson(row, base, (t) => toPlus8(t))).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('pgTimeToPlus8', () => {
  it('renders driver text like toPlus8 renders the Date the driver used to build (ms truncated), in any whole-hour zone', () => {
    fc.assert(
      fc.property(time, fc.integer({ min: -12, max: 14 }), fc.integer({ min: 0, max: 999 }), (d, zone, micros) => {
        expect(pgTimeToPlus8(pgText(d, zone, micros))).toBe(toPlus8(d));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes zones with minutes, Dates and short fractions too', () => {
    expect(pgTimeToPlus8('2026-11-22 02:00:00+00')).toBe('2026-11-22T10:00:00.000+08:00');
    expect(pgTimeToPlus8('2026-11-22 02:00:00.5+00')).toBe('2026-11-22T10:00:00.500+08:00');
    expect(pgTimeToPlus8('2026-11-22 02:00:00.123456+00:00')).toBe('2026-11-22T10:00:00.123+08:00');
    expect(pgTimeToPlus8('2026-11-22 07:45:30.25+05:45')).toBe('2026-11-22T10:00:30.250+08:00');
    expect(pgTimeToPlus8('2026-12-31 20:00:00-04')).toBe('2027-01-01T08:00:00.000+08:00');
    expect(pgTimeToPlus8(new Date(Date.UTC(2026, 0, 1)))).toBe('2026-01-01T08:00:00.000+08:00');
  });
});
