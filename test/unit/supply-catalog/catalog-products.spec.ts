import fc from 'fast-check';
import { cny } from '../../../src/common/money';
import { groupIntoProducts, variantPath } from '../../../src/supply-catalog/variant.rules';

describe('catalog products (issue 17: UCP products[].variants[])', () => {
  it('one product per sku_id in first-seen order, with the price range of its variants', () => {
    const v = (id: string, amount: number, location?: string) => ({ id, title: `t ${id}`, price: cny(amount), location });
    const { products, at } = groupIntoProducts([v('a-machine:X', 400, 'l1'), v('a-supply:Y', 100), v('a-machine:X', 350, 'l2')]);
    expect(products.map((p) => [p.id, p.title, p.variants.map((x) => x.location)])).toEqual([
      ['a-machine:X', 't a-machine:X', ['l1', 'l2']],
      ['a-supply:Y', 't a-supply:Y', [undefined]],
    ]);
    expect(products[0].price_range).toEqual({ min: cny(350), max: cny(400) });
    expect(at.map(variantPath)).toEqual(['$.products[0].variants[0]', '$.products[1].variants[0]', '$.products[0].variants[1]']);
  });

  it('property: every variant lands exactly once, at the place `at` says, and each range bounds its variants', () => {
    const variant = fc.record({ id: fc.constantFrom('n:A', 'n:B', 'n:C', 'n:D'), title: fc.string(), price: fc.integer({ min: 0, max: 1e6 }).map(cny), n: fc.nat() });
    fc.assert(
      fc.property(fc.array(variant, { maxLength: 30 }), (variants) => {
        const { products, at } = groupIntoProducts(variants);
        expect(products.reduce((sum, p) => sum + p.variants.length, 0)).toBe(variants.length);
        variants.forEach((v, i) => expect(products[at[i].product].variants[at[i].variant]).toBe(v));
        expect(new Set(products.map((p) => p.id)).size).toBe(products.length);
        for (const p of products) {
          expect(p.variants.every((v) => v.id === p.id && v.price.amount >= p.price_range.min.amount && v.price.amount <= p.price_range.max.amount)).toBe(true);
          expect(p.variants.some((v) => v.price.amount === p.price_range.min.amount)).toBe(true);
          expect(p.variants.some((v) => v.price.amount === p.price_range.max.amount)).toBe(true);
        }
      }),
    );
  });
});
