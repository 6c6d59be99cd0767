import { PartnerError } from '../../../src/partners/adapter.types';
import {
  extractBarcode,
  parseCatalog,
  parseInventory,
  parseLedgerPage,
  parseOrderAck,
  parseOrderStatus,
  parsePriceResult,
  parseRestockAck,
  parseRestockState,
} from '../../../src/partners/http/contract-parsers';

const T = 1_760_000_000_000;
const item = (over: Record<string, unknown> = {}) => ({ vendorSku: 'A1', title: 'Cola', priceFen: 350, stock: 3, ...over });
const line = (over: Record<string, unknown> = {}) => ({ vendorSku: 'A1', quantity: 1, priceFen: 350, status: 'paid', costFen: null, ...over });
const rec = (over: Record<string, unknown> = {}) => ({ orderNo: 'O1', locationId: 'L1', totalFen: 350, createdAt: T, lines: [line()], ...over });
const product = (over: Record<string, unknown> = {}) => ({
  vendorSku: 'P1',
  title: 'Cola can 330ml',
  packSize: 24,
  packPriceFen: 4800,
  eachPriceFen: 200,
  stock: 10,
  ...over,
});

function malformed(fn: () => unknown): PartnerError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PartnerError);
    expect((e as PartnerError).kind).toBe('malformed');
    return e as PartnerError;
  }
  throw new Error('expected a malformed PartnerError');
}

describe('parseInventory', () => {
  it('keeps conforming items with defaults for the optional fields', () => {
    const r = parseInventory({ items: [item({ barcode: '6901234567892', slotId: 'A01', capacity: 10 }), item({ vendorSku: 'B2' })] });
    expect(r.rejected).toEqual([]);
    expect(r.items[0]).toEqual({ vendorSku: 'A1', title: 'Cola', priceFen: 350, stock: 3, barcode: '6901234567892', slotId: 'A01', capacity: 10 });
    expect(r.items[1]).toMatchObject({ barcode: null, slotId: null, capacity: null });
  });

  it.each([
    ['a float', 3.5, 'priceFen is not a non-negative integer fen amount: 3.5'],
    ['a string', '350', 'priceFen is not a non-negative integer fen amount: "350"'],
    ['a negative number', -1, 'priceFen is not a non-negative integer fen amount: -1'],
    ['null', null, 'priceFen is not a non-negative integer fen amount: null'],
  ])('refuses an item whose price is %s, naming the field and value, and keeps the others', (_, value, reason) => {
    const r = parseInventory({ items: [item(), item({ vendorSku: 'B2', priceFen: value })] });
    expect(r.items.map((i) => i.vendorSku)).toEqual(['A1']);
    expect(r.rejected).toEqual([{ index: 1, id: 'B2', reason }]);
  });

  it('refuses missing required fields and bad vendorSku values', () => {
    const r = parseInventory({
      items: [{ vendorSku: 'A1', title: 'x', stock: 1 }, item({ vendorSku: 'has space' }), item({ vendorSku: 'ns:x' }), item({ vendorSku: '' }), 'junk'],
    });
    expect(r.items).toEqual([]);
    expect(r.rejected.map((x) => x.reason)).toEqual([
      'priceFen is missing',
      'vendorSku is not a non-empty id without whitespace or colon: "has space"',
      'vendorSku is not a non-empty id without whitespace or colon: "ns:x"',
      'vendorSku is not a non-empty id without whitespace or colon: ""',
      'record is not an object: "junk"',
    ]);
    expect(r.rejected[0]).toEqual({ index: 0, id: 'A1', reason: 'priceFen is missing' });
    expect(r.rejected[4]).toEqual({ index: 4, reason: 'record is not an object: "junk"' });
  });

  it('never rounds: 350.0000001 is refused, 350.0 (an integer in JSON) is kept', () => {
    const r = parseInventory(JSON.parse('{"items":[{"vendorSku":"A","title":"t","priceFen":350.0,"stock":1},{"vendorSku":"B","title":"t","priceFen":350.0000001,"stock":1}]}'));
    expect(r.items.map((i) => [i.vendorSku, i.priceFen])).toEqual([['A', 350]]);
    expect(r.rejected[0].id).toBe('B');
  });

  it('throws malformed instead of returning an empty list', () => {
    expect(malformed(() => parseInventory(null, 'x-machine')).message).toContain('x-machine');
    malformed(() => parseInventory([]));
    malformed(() => parseInventory('{"items":[]}'));
    expect(malformed(() => parseInventory({ data: [] })).reason).toContain('"items"');
  });
});

describe('parseLedgerPage', () => {
  it('passes state through, defaults lines to [], keeps nullable times and costFen', () => {
    const p = parseLedgerPage(
      {
        records: [
          rec({ state: 'weird_state', stateRaw: 'X', takenAt: null, settledAt: T + 1, updatedAt: T + 2, finalized: true, lines: [line({ costFen: 120, title: 'Cola' })] }),
          rec({ orderNo: 'O2', lines: undefined }),
        ],
        hasMore: false,
      },
      100,
    );
    expect(p.rejected).toEqual([]);
    expect(p.records[0]).toMatchObject({ state: 'weird_state', stateRaw: 'X', stateLabel: null, takenAt: null, settledAt: T + 1, finalized: true });
    expect(p.records[0].lines[0]).toEqual({ vendorSku: 'A1', title: 'Cola', quantity: 1, priceFen: 350, status: 'paid', costFen: 120 });
    expect(p.records[1].lines).toEqual([]);
  });

  it('refuses records with a float total, a string line price, a bad quantity or a bad time, keeping the rest', () => {
    const p = parseLedgerPage(
      {
        records: [
          rec({ orderNo: 'F', totalFen: 3.5 }),
          rec({ orderNo: 'S', lines: [line({ priceFen: '350' })] }),
          rec({ orderNo: 'Q', lines: [line({ quantity: 0 })] }),
          rec({ orderNo: 'C', lines: [line({ costFen: 1.2 })] }),
          rec({ orderNo: 'TS', createdAt: '2026-01-01T00:00:00Z' }),
          rec({ orderNo: 'SEC', createdAt: 1_760_000_000 }),
          rec({ orderNo: 'NULL', createdAt: null }),
          rec({ orderNo: 'OK' }),
          { locationId: 'L1', totalFen: 1, createdAt: T },
        ],
      },
      100,
    );
    expect(p.records.map((r) => r.orderNo)).toEqual(['OK']);
    expect(p.rejected).toEqual([
      { index: 0, id: 'F', reason: 'totalFen is not a non-negative integer fen amount: 3.5' },
      { index: 1, id: 'S', reason: 'lines[0].priceFen is not a non-negative integer fen amount: "350"' },
      { index: 2, id: 'Q', reason: 'lines[0].quantity is not an integer >= 1: 0' },
      { index: 3, id: 'C', reason: 'lines[0].costFen is not a non-negative integer fen amount: 1.2' },
      { index: 4, id: 'TS', reason: 'createdAt is not an epoch-ms integer: "2026-01-01T00:00:00Z"' },
      { index: 5, id: 'SEC', reason: 'createdAt is not epoch ms (looks like seconds or a placeholder): 1760000000' },
      { index: 6, id: 'NULL', reason: 'createdAt is not an epoch-ms integer: null' },
      { index: 8, reason: 'orderNo is missing' },
    ]);
  });

  it('takes hasMore from the body, else infers it from the page size (refused records count as sent)', () => {
    expect(parseLedgerPage({ records: [rec()], hasMore: true }, 100).hasMore).toBe(true);
    expect(parseLedgerPage({ records: [rec(), rec()], hasMore: false }, 2).hasMore).toBe(false);
    expect(parseLedgerPage({ records: [rec(), rec({ totalFen: 1.5 })] }, 2).hasMore).toBe(true);
    expect(parseLedgerPage({ records: [rec()] }, 2).hasMore).toBe(false);
    expect(parseLedgerPage({ records: [] }, 100).hasMore).toBe(false);
  });

  it('throws malformed for a body without records', () => {
    malformed(() => parseLedgerPage({ ok: true }, 100));
    malformed(() => parseLedgerPage({ records: {} }, 100));
  });
});

describe('extractBarcode', () => {
  it('prefers the barcode field, then a digit run in spec, then in title', () => {
    expect(extractBarcode({ barcode: ' 6901234567892 ', spec: '12345678' })).toBe('6901234567892');
    expect(extractBarcode({ spec: 'box of 24, EAN 6921168509256', title: 'Water 96012345' })).toBe('6921168509256');
    expect(extractBarcode({ spec: 'box of 24', title: 'Water 550ml 96012345' })).toBe('96012345');
    expect(extractBarcode({ spec: 'GTIN 16901234567899 outer' })).toBe('16901234567899');
    expect(extractBarcode({ spec: 'UPC 012345678905' })).toBe('012345678905');
  });

  it('ignores digit runs of other lengths and non-string fields', () => {
    expect(extractBarcode({ spec: 'batch 1234567, lot 123456789012345', title: '550ml x 24' })).toBeNull();
    expect(extractBarcode({ barcode: 6901234567892, spec: null, title: undefined })).toBeNull();
    expect(extractBarcode({ barcode: '', title: 'Cola 6901234567892' })).toBe('6901234567892');
  });
});

describe('parseCatalog', () => {
  it('defaults eachPriceDerived, extracts the barcode, keeps costFen', () => {
    const c = parseCatalog({ products: [product({ spec: 'box of 24, EAN 6921168509256', costFen: 150, sites: [{ id: 'w1' }] }), product({ vendorSku: 'P2', eachPriceDerived: true, barcode: '6901234567892' })] });
    expect(c.rejected).toEqual([]);
    expect(c.products[0]).toEqual({
      vendorSku: 'P1', title: 'Cola can 330ml', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, eachPriceDerived: false,
      stock: 10, barcode: '6921168509256', spec: 'box of 24, EAN 6921168509256', costFen: 150, sites: [{ id: 'w1' }],
    });
    expect(c.products[1]).toMatchObject({ eachPriceDerived: true, barcode: '6901234567892', costFen: null, sites: null });
  });

  it('refuses float, string and negative pack or each prices, and a packSize of 0', () => {
    const c = parseCatalog({ products: [product({ packPriceFen: 48.5 }), product({ vendorSku: 'P2', eachPriceFen: '2' }), product({ vendorSku: 'P3', costFen: -5 }), product({ vendorSku: 'P4', packSize: 0 }), product({ vendorSku: 'P5' })] });
    expect(c.products.map((p) => p.vendorSku)).toEqual(['P5']);
    expect(c.rejected.map((r) => `${r.id}: ${r.reason}`)).toEqual([
      'P1: packPriceFen is not a non-negative integer fen amount: 48.5',
      'P2: eachPriceFen is not a non-negative integer fen amount: "2"',
      'P3: costFen is not a non-negative integer fen amount: -5',
      'P4: packSize is not an integer >= 1: 0',
    ]);
  });

  it('throws malformed for a body without products', () => {
    malformed(() => parseCatalog({ items: [] }));
  });
});

describe('single-object answers', () => {
  it('parses order acks and statuses', () => {
    expect(parseOrderAck({ ref: 'r1', orderId: 991, state: 'ordered', rawStatus: 'NEW' })).toEqual({ ref: 'r1', orderId: '991', state: 'ordered', rawStatus: 'NEW' });
    expect(parseOrderStatus({ ref: 'r1', state: 'arrived', rawStatus: null, logistics: [{ carrier: 'SF', trackingNo: 'SF1', status: 'delivered', updatedAt: T }] })).toEqual({
      ref: 'r1', state: 'arrived', rawStatus: null, logistics: [{ carrier: 'SF', trackingNo: 'SF1', status: 'delivered', updatedAt: T }],
    });
    expect(parseOrderStatus({ ref: 'r1', state: 'ordered' }).logistics).toEqual([]);
  });

  it('throws malformed when a required field is missing or a time is not epoch ms', () => {
    expect(malformed(() => parseOrderAck({ ref: 'r1' })).reason).toBe('order answer: state is missing');
    expect(malformed(() => parseOrderStatus({ ref: 'r1', state: 'ordered', logistics: [{ updatedAt: 1.5 }] })).reason).toContain('updatedAt');
    malformed(() => parseOrderAck('ok'));
  });

  it('parses restock acks (count or boolean) and states', () => {
    expect(parseRestockAck({ accepted: 2, externalRef: 'X1' })).toEqual({ accepted: 2, externalRef: 'X1' });
    expect(parseRestockAck({ accepted: true }, 3)).toEqual({ accepted: 3, externalRef: null });
    malformed(() => parseRestockAck({ accepted: 1.5 }));
    expect(parseRestockState({ ref: 'r', status: 'completed', delivered: [{ vendorSku: 'A1', quantity: 4 }], completedAt: T })).toEqual({
      ref: 'r', status: 'completed', delivered: [{ vendorSku: 'A1', quantity: 4 }], completedAt: T, externalRef: null,
    });
    expect(malformed(() => parseRestockState({ ref: 'r', status: 'done' })).reason).toContain('status');
    malformed(() => parseRestockState({ ref: 'r', status: 'completed', delivered: [{ vendorSku: 'A1', quantity: 1.5 }] }));
  });

  it('parses price results, refusing confirmations with a bad amount', () => {
    const r = parsePriceResult({ updated: [{ vendorSku: 'A1', previousFen: 300, priceFen: 350 }, { vendorSku: 'B2', previousFen: 3.0001, priceFen: 350 }] });
    expect(r.updated).toEqual([{ vendorSku: 'A1', previousFen: 300, priceFen: 350 }]);
    expect(r.rejected).toEqual([{ index: 1, id: 'B2', reason: 'previousFen is not a non-negative integer fen amount: 3.0001' }]);
    malformed(() => parsePriceResult({}));
  });
});
