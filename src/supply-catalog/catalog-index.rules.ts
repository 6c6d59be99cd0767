/**
 * The in-memory search index of one cached supplier catalog (pure: no Nest, no I/O).
 *
 * Built once per catalog fetch, in O(total tokens), as a few flat typed arrays (few objects for the GC to trace):
 * - `words`: every distinct lowercase word of title, spec and barcode, sorted; the products containing words[i] are
 *   `postingData[postingStart[i] .. postingStart[i+1])` (ascending positions). A query word matches every indexed word
 *   it is a prefix of ("choc" finds "chocolate"), found by binary search over the sorted words; the words of a query
 *   are ANDed (posting-list intersection).
 * - `byBarcode`: barcode → positions, for exact barcode search and the automatic `barcode` aliases.
 * - `titleStart`/`titleWords`: the distinct title words of each product as ids into `words`, so that name
 *   similarity (`suggested` aliases) scores a product without tokenizing its title again on every request.
 * Results keep catalog order, so pagination is a stable offset into the match list.
 *
 * The build is a generator (`catalogIndexSteps`) that pauses every `slice` products, so a caller can give the
 * event loop back between slices while a 100,000-product catalog is indexed (SupplyCatalogService does).
 */

export interface Indexable {
  title: string;
  spec: string | null;
  barcode: string | null;
}

export interface CatalogIndex {
  /** Sorted distinct words. */
  words: string[];
  /** Positions of words[i]: postingData[postingStart[i] .. postingStart[i + 1]), ascending. */
  postingStart: Int32Array;
  postingData: Int32Array;
  byBarcode: Map<string, number[]>;
  /** Distinct title words of product p, as ids into `words`: titleWords[titleStart[p] .. titleStart[p + 1]). */
  titleStart: Int32Array;
  titleWords: Int32Array;
  size: number;
}

/** The products containing words[i] (a view, no copy). */
export function posting(index: CatalogIndex, i: number): Int32Array {
  return index.postingData.subarray(index.postingStart[i], index.postingStart[i + 1]);
}

const HAN = /\p{Script=Han}/u;

/**
 * Lowercase words: runs of letters/digits. Chinese titles have no spaces, so a run with Han characters also yields
 * each Han character: indexed text keeps the run and its characters, a query uses the characters only (ANDed).
 */
export function tokenize(text: string | null | undefined, forQuery = false): string[] {
  if (!text) return [];
  const ascii = tokenizeAscii(text);
  if (ascii) return ascii;
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    const han = HAN.test(w);
    if (!han || !forQuery) out.push(w);
    if (han) for (const ch of w) if (HAN.test(ch)) out.push(ch);
  }
  return out;
}

/** The same words for pure-ASCII text (letters and digits are the only \p{L}/\p{N} there), without a regex; null otherwise. */
function tokenizeAscii(text: string): string[] | null {
  const out: string[] = [];
  let start = -1;
  let lower = true;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (c > 127) return null;
    const upper = c >= 65 && c <= 90;
    if (upper || (c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) ((start = i), (lower = true));
      if (upper) lower = false;
    } else if (start >= 0) {
      const w = text.slice(start, i);
      out.push(lower ? w : w.toLowerCase());
      start = -1;
    }
  }
  return out;
}

/** A growable Int32Array (amortised doubling). */
class IntList {
  data = new Int32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

/** Products indexed per step of catalogIndexSteps (about half a millisecond of work). */
export const INDEX_SLICE = 500;

/**
 * The index build, pausing (yield) after every `slice` products and between its phases when the catalog is larger
 * than one slice. Drive it with buildCatalogIndex (at once) or step by step, giving the event loop back in between.
 */
export function* catalogIndexSteps(products: readonly Indexable[], slice = INDEX_SLICE): Generator<void, CatalogIndex, void> {
  const n = products.length;
  const pause = n > slice;
  const ids = new Map<string, number>(); // word -> id in order of first sight
  const seen: string[] = [];
  const pairWord = new IntList(); // (word id, position) pairs, positions ascending
  const pairPos = new IntList();
  const titleStart = new Int32Array(n + 1);
  const titleTmp = new IntList();
  const byBarcode = new Map<string, number[]>();

  const idOf = (w: string): number => {
    let id = ids.get(w);
    if (id === undefined) {
      id = seen.length;
      ids.set(w, id);
      seen.push(w);
    }
    return id;
  };
  for (let pos = 0; pos < n; pos++) {
    if (pause && pos > 0 && pos % slice === 0) yield;
    const p = products[pos];
    const first = pairWord.length;
    titleStart[pos] = titleTmp.length;
    const add = (words: string[], title: boolean) => {
      for (const w of words) {
        const id = idOf(w);
        if (title && !includes(titleTmp, titleStart[pos], id)) titleTmp.push(id);
        if (!includes(pairWord, first, id)) (pairWord.push(id), pairPos.push(pos));
      }
    };
    add(tokenize(p.title), true);
    add(tokenize(p.spec), false);
    add(tokenize(p.barcode), false);
    if (p.barcode) {
      const b = byBarcode.get(p.barcode);
      if (b) b.push(pos);
      else byBarcode.set(p.barcode, [pos]);
    }
  }
  titleStart[n] = titleTmp.length;
  if (pause) yield;

  // Sort the words (plain code-unit order, as lowerBound compares) and renumber the ids by rank.
  const words = seen.slice().sort();
  const rank = new Int32Array(words.length);
  for (let r = 0; r < words.length; r++) rank[ids.get(words[r])!] = r;
  if (pause) yield;

  // Postings by counting sort over the pairs; positions stay ascending within a word.
  const postingStart = new Int32Array(words.length + 1);
  for (let k = 0; k < pairWord.length; k++) postingStart[rank[pairWord.data[k]] + 1]++;
  for (let r = 0; r < words.length; r++) postingStart[r + 1] += postingStart[r];
  const cursor = postingStart.slice(0, words.length);
  const postingData = new Int32Array(pairWord.length);
  for (let k = 0; k < pairWord.length; k++) postingData[cursor[rank[pairWord.data[k]]]++] = pairPos.data[k];
  const titleWords = new Int32Array(titleTmp.length);
  for (let k = 0; k < titleTmp.length; k++) titleWords[k] = rank[titleTmp.data[k]];
  return { words, postingStart, postingData, byBarcode, titleStart, titleWords, size: n };
}

function includes(list: IntList, from: number, v: number): boolean {
  for (let k = from; k < list.length; k++) if (list.data[k] === v) return true;
  return false;
}

/** Runs a step generator to its end. */
export function runSteps<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

export function buildCatalogIndex(products: readonly Indexable[]): CatalogIndex {
  return runSteps(catalogIndexSteps(products));
}

/** First index in the sorted words whose word is >= w. */
export function lowerBound(words: string[], w: string): number {
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
  if (end - start === 1) return posting(index, start);
  if (end === start) return new Int32Array(0);
  const seen = new Uint8Array(index.size);
  let count = 0;
  for (let i = start; i < end; i++) for (const pos of posting(index, i)) if (!seen[pos]) ((seen[pos] = 1), count++);
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
