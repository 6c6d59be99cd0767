/**
 * Name similarity over the catalog index and over plain title sets (pure: no Nest, no I/O): the `suggested`
 * aliases and the machine directory's title matches.
 */
import { CatalogIndex, lowerBound, posting, tokenize } from './catalog-index.rules';

/** Token-set similarity of two titles (Dice coefficient over distinct words), 0..1. Used for `suggested` aliases. */
export function titleSimilarity(a: string, b: string): number {
  return wordSetSimilarity(new Set(tokenize(a)), new Set(tokenize(b)));
}

/** The id of exactly `w` in the sorted words, or -1. */
export function wordId(index: CatalogIndex, w: string): number {
  const i = lowerBound(index.words, w);
  return i < index.words.length && index.words[i] === w ? i : -1;
}

/**
 * Candidate positions for name-similarity suggestions: products sharing the most exact words with `title`, counted
 * over its `rarest` least common words only. Words with more than `maxPosting` products (brands, sizes, "tea" in a
 * huge catalog) say little and are skipped, so the cost stays bounded on 100,000 products: at most
 * `rarest * maxPosting` positions are walked (a merge of the chosen posting lists, no per-call map or sort), and the
 * walk stops once `maxCandidates` products share every chosen word. Returns at most `maxCandidates` positions, most
 * shared words first, then catalog order.
 */
export function similarCandidates(index: CatalogIndex, title: string, maxPosting = 2000, maxCandidates = 20, rarest = 3): number[] {
  const lists: Int32Array[] = [];
  for (const w of new Set(tokenize(title))) {
    const i = wordId(index, w);
    if (i < 0) continue;
    const l = posting(index, i);
    if (l.length <= maxPosting) lists.push(l);
  }
  lists.sort((a, b) => a.length - b.length); // stable: ties keep title order
  if (lists.length > rarest) lists.length = rarest;
  const k = lists.length;
  if (k === 0 || maxCandidates <= 0) return [];
  // buckets[c - 1]: positions found in exactly c lists, ascending, at most maxCandidates each.
  const buckets: number[][] = Array.from({ length: k }, () => []);
  const at = new Array<number>(k).fill(0);
  for (;;) {
    let min = -1;
    for (let j = 0; j < k; j++) if (at[j] < lists[j].length && (min < 0 || lists[j][at[j]] < min)) min = lists[j][at[j]];
    if (min < 0) break;
    let c = 0;
    for (let j = 0; j < k; j++) if (at[j] < lists[j].length && lists[j][at[j]] === min) (c++, at[j]++);
    const bucket = buckets[c - 1];
    if (bucket.length < maxCandidates) bucket.push(min);
    if (buckets[k - 1].length >= maxCandidates) break;
  }
  const out: number[] = [];
  for (let c = k; c >= 1 && out.length < maxCandidates; c--) for (const pos of buckets[c - 1]) if (out.length < maxCandidates) out.push(pos);
  return out;
}

/**
 * Products whose title is similar to `title` (titleSimilarity >= minScore), among similarCandidates, scored from the
 * title words precomputed at index build (`titleWords`): no product title is tokenized per call.
 */
export function similarProducts(index: CatalogIndex, title: string, minScore: number): { pos: number; score: number }[] {
  const mine = new Set(tokenize(title));
  if (mine.size === 0) return [];
  const ids: number[] = [];
  for (const w of mine) {
    const i = wordId(index, w);
    if (i >= 0) ids.push(i);
  }
  const out: { pos: number; score: number }[] = [];
  for (const pos of similarCandidates(index, title)) {
    const from = index.titleStart[pos];
    const to = index.titleStart[pos + 1];
    let common = 0;
    for (let k = from; k < to; k++) if (ids.includes(index.titleWords[k])) common++;
    const score = to > from ? (2 * common) / (mine.size + (to - from)) : 0;
    if (score >= minScore) out.push({ pos, score });
  }
  return out;
}

/**
 * A set of short titles (one per machine sku) prepared for name similarity: distinct words per title and, per word,
 * the titles containing it. Built once and reused while the titles stay the same (see machine-directory.rules.ts).
 */
export interface TitleSet {
  keys: string[];
  dict: Map<string, number>;
  /** Distinct word count per title. */
  sizes: Int32Array;
  /** Titles containing word w: postData[postStart[w] .. postStart[w + 1]). */
  postStart: Int32Array;
  postData: Int32Array;
  /** Work space of similarTitles: shared-word counters (all zero between calls) and the titles touched. */
  counts: Int32Array;
  touched: Int32Array;
}

export function buildTitleSet(entries: readonly { key: string; title: string }[]): TitleSet {
  const dict = new Map<string, number>();
  const pairs: [number, number][] = [];
  const sizes = new Int32Array(entries.length);
  entries.forEach((e, t) => {
    const words = new Set(tokenize(e.title));
    sizes[t] = words.size;
    for (const w of words) {
      let id = dict.get(w);
      if (id === undefined) dict.set(w, (id = dict.size));
      pairs.push([id, t]);
    }
  });
  const postStart = new Int32Array(dict.size + 1);
  for (const [w] of pairs) postStart[w + 1]++;
  for (let w = 0; w < dict.size; w++) postStart[w + 1] += postStart[w];
  const cursor = postStart.slice(0, dict.size);
  const postData = new Int32Array(pairs.length);
  for (const [w, t] of pairs) postData[cursor[w]++] = t;
  return {
    keys: entries.map((e) => e.key),
    dict,
    sizes,
    postStart,
    postData,
    counts: new Int32Array(entries.length),
    touched: new Int32Array(entries.length),
  };
}

/**
 * The `limit` titles of the set most similar to `title` (titleSimilarity, highest first, ties by key), among those
 * scoring at least minScore (> 0). Only titles sharing a word are visited, through the word lists, so the cost is the
 * number of (shared word, title) pairs, not the size of the set; nothing proportional to the set is allocated.
 */
export function similarTitles(set: TitleSet, title: string, minScore: number, limit: number): { key: string; score: number }[] {
  const mine = new Set(tokenize(title));
  const out: { key: string; score: number }[] = [];
  if (mine.size === 0 || limit <= 0) return out;
  let n = 0;
  for (const w of mine) {
    const id = set.dict.get(w);
    if (id === undefined) continue;
    for (let k = set.postStart[id]; k < set.postStart[id + 1]; k++) {
      const t = set.postData[k];
      if (set.counts[t]++ === 0) set.touched[n++] = t;
    }
  }
  for (let i = 0; i < n; i++) {
    const t = set.touched[i];
    const score = (2 * set.counts[t]) / (mine.size + set.sizes[t]);
    set.counts[t] = 0;
    if (score >= minScore) keepBest(out, { key: set.keys[t], score }, limit);
  }
  return out;
}

/** Inserts `c` into `best` (score desc, key asc), keeping at most `limit` entries. */
function keepBest(best: { key: string; score: number }[], c: { key: string; score: number }, limit: number): void {
  let i = best.length;
  while (i > 0 && (best[i - 1].score < c.score || (best[i - 1].score === c.score && best[i - 1].key > c.key))) i--;
  if (i >= limit) return;
  best.splice(i, 0, c);
  if (best.length > limit) best.pop();
}

/** Dice coefficient of two word sets (titleSimilarity on pre-tokenized titles). */
export function wordSetSimilarity(x: ReadonlySet<string>, y: ReadonlySet<string>): number {
  if (x.size === 0 || y.size === 0) return 0;
  let common = 0;
  for (const w of x) if (y.has(w)) common++;
  return (2 * common) / (x.size + y.size);
}
