import fc from 'fast-check';
import { buildCatalogIndex, combine, matchCategories, matchQuery, recordMatches, tokenize } from '../../../src/supply-catalog/catalog-index.rules';
import { similarCandidates, titleSimilarity } from '../../../src/supply-catalog/title-similarity.rules';
import { decodeCursor, encodeCursor, pageOf } from '../../../src/catalog/pagination.rules';
import { priceDerivedWarning, renderSupplyVariant, saleUnitFor, saleUnits } from '../../../src/supply-catalog/variant.rules';

const products = [
  { title: 'Coca-Cola can 330ml', spec: 'box of 24', barcode: '6901234567892' },
  { title: 'Nongfu Spring water 550ml', spec: 'box of 12, EAN 6920000000019', barcode: '6920000000019' },
  { title: 'Master Kong green tea 500ml', spec: null, barcode: null },
  { title: '康师傅 红烧牛肉面', spec: null, barcode: null },
];

describe('catalog index', () => {
  const index = buildCatalogIndex(products);
  const ids = (m: Int32Array | null) => (m ? [...m] : null);

  it('matches words by prefix over title, spec and barcode, ANDing the words', () => {
    expect(ids(matchQuery(index, 'cola'))).toEqual([0]);
    expect(ids(matchQuery(index, 'MAST green'))).toEqual([2]);
    expect(ids(matchQuery(index, 'master water'))).toEqual([]);
    expect(ids(matchQuery(index, '6920000000019'))).toEqual([1]);
    expect(ids(matchQuery(index, 'box'))).toEqual([0, 1]);
    expect(ids(matchQuery(index, '牛肉'))).toEqual([3]);
    expect(ids(matchQuery(index, '面'))).toEqual([3]);
    expect(matchQuery(index, '   ')).toBeNull();
    expect(index.byBarcode.get('6901234567892')).toEqual([0]);
  });

  it('matches categories (any of them) and combines with the query', () => {
    expect(ids(matchCategories(index, ['water', 'green tea']))).toEqual([1, 2]);
    expect(ids(combine(index, matchQuery(index, '500ml'), matchCategories(index, ['water', 'tea'])))).toEqual([2]);
    expect(combine(index, null, null)).toBeNull();
  });

  it('agrees with the plain record matcher (property)', () => {
    const word = fc.constantFrom('cola', 'can', 'water', 'tea', 'green', 'box', 'of', 'master', '550', 'x', 'co');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 3 }), (words) => {
        const q = words.join(' ');
        const viaIndex = matchQuery(index, q);
        const viaScan = products.map((p, i) => (recordMatches(p, q, undefined) ? i : -1)).filter((i) => i >= 0);
        expect(viaIndex ? [...viaIndex] : products.map((_, i) => i)).toEqual(viaScan);
      }),
    );
  });

  it('finds similar titles and scores them', () => {
    expect(similarCandidates(index, 'Master Kong jasmine tea 500ml')[0]).toBe(2);
    expect(titleSimilarity('Coca-Cola can 330ml', 'Coca-Cola can 330ml')).toBe(1);
    expect(titleSimilarity('Coca-Cola can 330ml', 'Snickers bar')).toBe(0);
    expect(tokenize("Lay's chips")).toEqual(['lay', 's', 'chips']);
  });
});

describe('pagination cursor', () => {
  it('round-trips and refuses a cursor of another search', () => {
    const c = encodeCursor(40, 'fp1');
    expect(decodeCursor(c, 'fp1')).toBe(40);
    expect(decodeCursor(c, 'fp2')).toBeNull();
    expect(decodeCursor('%%%', 'fp1')).toBeNull();
    expect(decodeCursor(Buffer.from('{"o":-1,"f":"fp1"}').toString('base64url'), 'fp1')).toBeNull();
  });

  it('pages without gaps or repeats (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 15 }), (total, limit) => {
        const seen: number[] = [];
        let offset = 0;
        for (;;) {
          const p = pageOf(total, { offset, limit }, 'f', (a, b) => Array.from({ length: b - a }, (_, i) => a + i));
          seen.push(...p.items);
          if (!p.pagination.has_next_page) break;
          offset = decodeCursor((p.pagination as { cursor: string }).cursor, 'f')!;
        }
        expect(seen).toEqual(Array.from({ length: total }, (_, i) => i));
      }),
    );
  });
});

describe('sale units and variants', () => {
  const boxed = { vendorSku: 'A1', title: 'Cola', packSize: 24, packPriceFen: 4560, eachPriceFen: 200, eachPriceDerived: false, stock: 3, barcode: '6901234567892' };
  const derived = { ...boxed, vendorSku: 'A2', packPriceFen: 4800, eachPriceDerived: true };
  const single = { ...boxed, vendorSku: 'A3', packSize: 1, packPriceFen: 200, stock: 0 };

  it('EA always; BX with contains, increment and the box price when boxed', () => {
    expect(saleUnits(boxed)).toEqual([
      { unit: 'EA', display_text: 'each', increment: 1, price: { amount: 200, currency: 'CNY' }, price_derived: false },
      { unit: 'BX', display_text: 'box of 24', contains: 24, increment: 1, price: { amount: 4560, currency: 'CNY' }, price_derived: false },
    ]);
    expect(saleUnits(single).map((u) => u.unit)).toEqual(['EA']);
    expect(saleUnitFor(single, 'BX')).toBeNull();
    expect(saleUnitFor(boxed, undefined)?.unit).toBe('EA');
  });

  it('a box-only quote marks the each price derived and orders EA in whole boxes, with a warning', () => {
    const [ea, bx] = saleUnits(derived);
    expect(ea).toMatchObject({ unit: 'EA', price_derived: true, increment: 24, price: { amount: 200 } });
    expect(bx).toMatchObject({ unit: 'BX', price_derived: false, contains: 24, price: { amount: 4800 } });
    const v = renderSupplyVariant('acme-supply', derived);
    expect(priceDerivedWarning(v, '$.variants[0]')).toMatchObject({ code: 'price_derived', severity: 'warning', path: '$.variants[0].price' });
    expect(priceDerivedWarning(renderSupplyVariant('acme-supply', boxed), '$')).toBeNull();
  });

  it('renders the each price and never a cost', () => {
    const v = renderSupplyVariant('acme-supply', { ...boxed, costFen: 150 } as typeof boxed);
    expect(v).toMatchObject({ id: 'acme-supply:A1', sku: '6901234567892', price: { amount: 200, currency: 'CNY' }, quantity_unit: 'EA' });
    expect(JSON.stringify(v)).not.toMatch(/cost|150/);
  });
});
