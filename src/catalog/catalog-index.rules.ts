/**
 * The in-memory search index of one cached supplier catalog (pure: no Nest, no I/O).
 *
 * Built once per catalog fetch, in O(total tokens):
 * - `tokens`: every distinct lowercase word of title, spec and barcode, sorted, each with a posting list of product
 *   positions (ascending). A query word matches every indexed word it is a prefix of ("choc" finds "chocolate"),
 *   found by binary search over the sorted words; the words of a query are ANDed (posting-list intersection).
 * - `byBarcode`: barcode → positions, for exact barcode search and the automatic `barcode` aliases.
 * Results keep catalog order, so pagination is a stable offset into the match list.
 */

export interface Indexable {
  title: string;
  spec: string | null;
  barcode: string | null;
}

export interface CatalogIndex {
  /** Sorted distinct words. */
  words: string[];
  /** postings[i]: ascending product positions containing words[i]. */
  postings: Int32Array[];
  byBarcode: Map<string, number[]>;
  size: number;
}

/**
 * Lowercase words: runs of letters/digits. Chinese titles have no spaces, so a run with Han characters also yields
 * each Han character: indexed text keeps the run and its characters, a query uses the characters only (ANDed).
 */
export function tokenize(text: string | null | undefined, forQuery = false): string[] {
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

export function buildCatalogIndex(products: readonly Indexable[]): CatalogIndex {
  const lists = new Map<string, number[]>();
  const byBarcode = new Map<string, number[]>();
  products.forEach((p, i) => {
    const words = new Set([...tokenize(p.title), ...tokenize(p.spec), ...tokenize(p.barcode)]);
    for (const w of words) {
      const l = lists.get(w);
      if (l) l.push(i);
      else lists.set(w, [i]);
    }
    if (p.barcode) {
      const b = byBarcode.get(p.barcode);
      if (b) b.push(i);
      else byBarcode.set(p.barcode, [i]);
    }
  });
  const words = [...lists.keys()].sort();
  return { words, postings: words.map((w) => Int32Array.from(lists.get(w)!)), byBarcode, size: products.length };
}

/** First index in the sorted words whose word is >= w. */
function lowerBound(words: string[], w: string): number {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[mid] < w) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Positions of products with a word starting with `prefix` (ascending, distinct). */
export function prefixPositions(index: CatalogIndex, prefix: string): Int32Array {
  const start = lowerBound(index.words, prefix);
  let end = start;
  while (end < index.words.length && index.words[end].startsWith(prefix)) end++;
  if (end - start === 1) return index.postings[start];
  if (end === start) return new Int32Array(0);
  const seen = new Uint8Array(index.size);
  let count = 0;
  for (let i = start; i < end; i++) for (const pos of index.postings[i]) if (!seen[pos]) ((seen[pos] = 1), count++);
  const out = new Int32Array(count);
  let k = 0;
  for (let pos = 0; pos < index.size; pos++) if (seen[pos]) out[k++] = pos;
  return out;
}

function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) (out.push(a[i]), i++, j++);
    else if (a[i] < b[j]) i++;
    else j++;
  }
  return Int32Array.from(out);
}

/**
 * Positions matching a free-text query: every query word must prefix-match a word of the product (title, spec or
 * barcode). An empty query matches everything (null = "no restriction", so callers avoid a 100k array).
 */
export function matchQuery(index: CatalogIndex, query: string | undefined): Int32Array | null {
  const words = [...new Set(tokenize(query, true))];
  if (words.length === 0) return null;
  const lists = words.map((w) => prefixPositions(index, w)).sort((a, b) => a.length - b.length);
  let acc = lists[0];
  for (let i = 1; i < lists.length && acc.length > 0; i++) acc = intersect(acc, lists[i]);
  return acc;
}

/**
 * Positions matching the categories filter. The partner contract carries no category field, so a category is
 * matched as words over the product's title and spec: a product matches when ANY category's words all match.
 */
export function matchCategories(index: CatalogIndex, categories: string[] | undefined): Int32Array | null {
  if (!categories || categories.length === 0) return null;
  const seen = new Uint8Array(index.size);
  for (const c of categories) {
    const m = matchQuery(index, c);
    if (m) for (const pos of m) seen[pos] = 1;
  }
  const out: number[] = [];
  for (let pos = 0; pos < index.size; pos++) if (seen[pos]) out.push(pos);
  return Int32Array.from(out);
}

/** Combines the query and category matches (null = unrestricted) into the final ascending position list. */
export function combine(index: CatalogIndex, ...parts: (Int32Array | null)[]): Int32Array | null {
  const given = parts.filter((p): p is Int32Array => p !== null);
  if (given.length === 0) return null;
  return given.reduce((acc, p) => intersect(acc, p));
}

/** Plain matching of one record, for small lists searched without an index (a machine's slots). */
export function recordMatches(record: Indexable, query: string | undefined, categories: string[] | undefined): boolean {
  const words = new Set([...tokenize(record.title), ...tokenize(record.spec), ...tokenize(record.barcode)]);
  const all = (q: string) => tokenize(q, true).every((w) => [...words].some((x) => x.startsWith(w)));
  if (query && tokenize(query, true).length > 0 && !all(query)) return false;
  if (categories && categories.length > 0 && !categories.some((c) => all(c))) return false;
  return true;
}

/** Token-set similarity of two titles (Dice coefficient over distinct words), 0..1. Used for `suggested` aliases. */
export function titleSimilarity(a: string, b: string): number {
  return wordSetSimilarity(new Set(tokenize(a)), new Set(tokenize(b)));
}

/**
 * Candidate positions for name-similarity suggestions: products sharing the most exact words with `title`, counted
 * over its `rarest` least common words only. Words with more than `maxPosting` products (brands, sizes, "tea" in a
 * huge catalog) say little and are skipped, so the cost stays bounded on 100,000 products. Returns at most
 * `maxCandidates` positions, best overlap first.
 */
export function similarCandidates(index: CatalogIndex, title: string, maxPosting = 2000, maxCandidates = 20, rarest = 3): number[] {
  const postings: Int32Array[] = [];
  for (const w of new Set(tokenize(title))) {
    const i = lowerBound(index.words, w);
    if (i >= index.words.length || index.words[i] !== w) continue;
    if (index.postings[i].length <= maxPosting) postings.push(index.postings[i]);
  }
  postings.sort((a, b) => a.length - b.length);
  const counts = new Map<number, number>();
  for (const posting of postings.slice(0, rarest)) for (const pos of posting) counts.set(pos, (counts.get(pos) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, maxCandidates)
    .map(([pos]) => pos);
}

/** Dice coefficient of two word sets (titleSimilarity on pre-tokenized titles). */
export function wordSetSimilarity(x: ReadonlySet<string>, y: ReadonlySet<string>): number {
  if (x.size === 0 || y.size === 0) return 0;
  let common = 0;
  for (const w of x) if (y.has(w)) common++;
  return (2 * common) / (x.size + y.size);
}
