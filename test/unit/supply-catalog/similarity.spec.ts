/**
 * The per-fetch index and the name-similarity paths used for `suggested` aliases, checked against plain reference
 * implementations (what the code computed before it was made cheap per request), plus the work bounds that keep a
 * 50-id lookup cheap on a 100,000-product catalog: no product title is read (or tokenized) per call, and the build
 * gives the event loop back.
 */
import fc from 'fast-check';
import { buildCatalogIndex, catalogIndexSteps, Indexable, posting, tokenize } from '../../../src/supply-catalog/catalog-index.rules';
import { buildTitleSet, similarCandidates, similarProducts, similarTitles, titleSimilarity, wordSetSimilarity } from '../../../src/supply-catalog/title-similarity.rules';
import { pickSuggestions, SUGGEST_MAX, SUGGEST_MIN_SIMILARITY } from '../../../src/skus/alias.rules';

// ---- reference implementations (straightforward, allocation-heavy) ----

function refTokenize(text: string | null | undefined, forQuery = false): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    const han = /\p{Script=Han}/u.test(w);
    if (!han || !forQuery) out.push(w);
    if (han) for (const ch of w) if (/\p{Script=Han}/u.test(ch)) out.push(ch);
  }
  return out;
}

function refPostings(products: readonly Indexable[]): Map<string, number[]> {
  const lists = new Map<string, number[]>();
  products.forEach((p, i) => {
    for (const w of new Set([...refTokenize(p.title), ...refTokenize(p.spec), ...refTokenize(p.barcode)])) {
      const l = lists.get(w);
      if (l) l.push(i);
      else lists.set(w, [i]);
    }
  });
  return lists;
}

function refCandidates(products: readonly Indexable[], title: string, maxPosting = 2000, maxCandidates = 20, rarest = 3): number[] {
  const lists = refPostings(products);
  const postings = [...new Set(refTokenize(title))].map((w) => lists.get(w)).filter((l): l is number[] => !!l && l.length <= maxPosting);
  postings.sort((a, b) => a.length - b.length);
  const counts = new Map<number, number>();
  for (const l of postings.slice(0, rarest)) for (const pos of l) counts.set(pos, (counts.get(pos) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, maxCandidates)
    .map(([pos]) => pos);
}

// ---- generators: a small vocabulary, so titles share words ----

const VOCAB = ['cola', 'Cola', 'tea', 'green', 'GREEN', 'oolong', '500ml', '330ml', 'x', 'master', 'kong', '康师傅', '红烧牛肉面', 'café', 'lay', "'s", '6901234567892'];
const SEPS = [' ', ' ', '-', ', ', '/', '  '];
const titleArb = fc.array(fc.tuple(fc.constantFrom(...VOCAB), fc.constantFrom(...SEPS)), { maxLength: 6 }).map((ws) => ws.map(([w, s]) => w + s).join('').trim());
const productArb = fc.record({
  title: titleArb,
  spec: fc.option(titleArb, { nil: null }),
  barcode: fc.option(fc.constantFrom('6901234567892', '6920000000019', '0001'), { nil: null }),
});

describe('tokenize', () => {
  it('gives the same words as the regex definition, on ASCII and non-ASCII text (property)', () => {
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'B', 'z', 'Z', '0', '9', ' ', '-', "'", '.', '_', '@', '[', '`', '{', '/', ':') }),
      fc.string({ unit: 'grapheme' }),
      titleArb,
    );
    fc.assert(
      fc.property(text, fc.boolean(), (t, q) => {
        expect(tokenize(t, q)).toEqual(refTokenize(t, q));
      }),
      { numRuns: 500 },
    );
  });
});

describe('catalog index (flat posting lists, title words per product)', () => {
  it('holds exactly the words, postings and title words of the plain definition (property)', () => {
    fc.assert(
      fc.property(fc.array(productArb, { maxLength: 25 }), fc.integer({ min: 1, max: 7 }), (products, slice) => {
        let pauses = 0;
        const steps = catalogIndexSteps(products, slice);
        let r = steps.next();
        while (!r.done) ((pauses += 1), (r = steps.next()));
        const index = r.value;
        const ref = refPostings(products);
        expect(index.words).toEqual([...ref.keys()].sort());
        index.words.forEach((w, i) => expect([...posting(index, i)]).toEqual(ref.get(w)));
        products.forEach((p, pos) => {
          const mine = [...index.titleWords.subarray(index.titleStart[pos], index.titleStart[pos + 1])].map((id) => index.words[id]);
          expect(mine.sort()).toEqual([...new Set(refTokenize(p.title))].sort());
        });
        expect(buildCatalogIndex(products)).toEqual(index);
        if (products.length <= slice) expect(pauses).toBe(0);
        else expect(pauses).toBeGreaterThanOrEqual(Math.ceil(products.length / slice) - 1);
      }),
    );
  });
});

describe('name similarity', () => {
  it('similarCandidates picks the same products as the plain counting version (property)', () => {
    fc.assert(
      fc.property(
        fc.array(productArb, { maxLength: 30 }),
        titleArb,
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        (products, title, maxPosting, maxCandidates, rarest) => {
          const index = buildCatalogIndex(products);
          expect(similarCandidates(index, title, maxPosting, maxCandidates, rarest)).toEqual(refCandidates(products, title, maxPosting, maxCandidates, rarest));
        },
      ),
    );
  });

  it('similarProducts scores the candidates as titleSimilarity does, keeping those at or above the threshold (property)', () => {
    fc.assert(
      fc.property(fc.array(productArb, { maxLength: 30 }), titleArb, fc.double({ min: 0.01, max: 1, noNaN: true }), (products, title, min) => {
        const index = buildCatalogIndex(products);
        const expected = refCandidates(products, title)
          .map((pos) => ({ pos, score: titleSimilarity(title, products[pos].title) }))
          .filter((c) => c.score >= min);
        expect(similarProducts(index, title, min)).toEqual(expected);
      }),
    );
  });

  it('similarTitles gives the suggestions a full scan of every machine title gives (property)', () => {
    const entryArb = fc.uniqueArray(fc.record({ key: fc.constantFrom('a-machine:1', 'a-machine:2', 'b-machine:3', 'b-machine:4', 'c-machine:5', 'c-machine:6', 'c-machine:7'), title: titleArb }), {
      selector: (e) => e.key,
      maxLength: 7,
    });
    fc.assert(
      fc.property(entryArb, fc.array(titleArb, { minLength: 1, maxLength: 4 }), (entries, titles) => {
        const set = buildTitleSet(entries);
        for (const title of titles) {
          const scan = entries.map((e) => ({ skuId: e.key, score: wordSetSimilarity(new Set(refTokenize(title)), new Set(refTokenize(e.title))) }));
          const fast = similarTitles(set, title, SUGGEST_MIN_SIMILARITY, SUGGEST_MAX).map((c) => ({ skuId: c.key, score: c.score }));
          expect(fast.length).toBeLessThanOrEqual(SUGGEST_MAX);
          expect(pickSuggestions(fast)).toEqual(pickSuggestions(scan));
        }
        // The work space is left clean between calls.
        expect([...set.counts].every((c) => c === 0)).toBe(true);
      }),
    );
  });

  it('never reads a product title after the build: similarity uses the title words precomputed per fetch', () => {
    const base = [
      { title: 'Coca-Cola can 330ml', spec: null, barcode: '6901234567892' },
      { title: 'Master Kong green tea 500ml', spec: null, barcode: null },
      { title: 'Master Kong jasmine tea 500ml', spec: 'box of 15', barcode: null },
      { title: 'Nongfu Spring water 550ml', spec: null, barcode: null },
    ];
    let titleReads = 0;
    const products: Indexable[] = base.map((p) => ({
      get title() {
        titleReads += 1;
        return p.title;
      },
      spec: p.spec,
      barcode: p.barcode,
    }));
    const index = buildCatalogIndex(products);
    titleReads = 0;
    const found = similarProducts(index, 'Master Kong jasmine green tea 500ml', SUGGEST_MIN_SIMILARITY);
    expect(found.map((c) => c.pos).sort()).toEqual([1, 2]);
    for (const c of found) expect(c.score).toBeCloseTo(titleSimilarity('Master Kong jasmine green tea 500ml', base[c.pos].title));
    expect(titleReads).toBe(0);
  });

  it('on a large catalog, skips words too common to say anything and still picks what the plain version picks', () => {
    // 20,000 products sharing "tea" and "500ml": words over maxPosting are skipped, so only rare words count.
    const products = Array.from({ length: 20_000 }, (_, i) => ({ title: `brand${i % 50} tea 500ml flavour${i % 400}`, spec: null, barcode: null }));
    const index = buildCatalogIndex(products);
    const c = similarCandidates(index, 'brand7 tea 500ml flavour7', 2000, 20);
    expect(c).toEqual(refCandidates(products, 'brand7 tea 500ml flavour7', 2000, 20));
    expect(c).toHaveLength(20);
    expect(similarCandidates(index, 'tea 500ml')).toEqual([]);
  });
});
