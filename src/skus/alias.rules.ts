/**
 * The seven alias rules of the SKU registry (spec "Alias"), as pure functions: no Nest, no TypeORM, no I/O.
 *
 * 1. Aliases are symmetric                         → canonicalPair / otherSide / storedAliasesOf
 * 2. A `vendor` alias is implied on every read      → impliedVendorAlias (never stored, never confirmed)
 * 3. A stored alias wins over the implied one       → mergeAliases (precedence stored > barcode > vendor > suggested)
 * 4. PUT with source `vendor` is recorded as manual → storedSourceFor
 * 5. purchasable_from[] only carried and priced     → purchasableFrom
 * 6. a dropped mapping stays, with unresolved_sku   → aliasWarnings
 * 7. an unreachable catalog keeps the entry, says why → aliasWarnings
 */
import { message, UcpMessage } from '../common/envelope/envelope';
import { parseSkuId, Role } from '../identifiers/identifiers';

export type AliasSource = 'barcode' | 'manual' | 'vendor' | 'suggested';
export const ALIAS_SOURCES: readonly AliasSource[] = ['barcode', 'manual', 'vendor', 'suggested'];

/** An alias of a sku as the rules answer it (the edge renders it: skus/api/skus.view.ts). */
export interface Alias {
  skuId: string;
  source: AliasSource;
  /** When it was confirmed (as stored, or epoch ms when computed), or null: implied and suggested aliases never are. */
  confirmedAt: Date | number | null;
}

/** A stored row: one unordered pair. */
export interface StoredPair {
  skuA: string;
  skuB: string;
  source: string;
  confirmedAt: Date;
}

/** A source that may be used to order (spec table: every source but `suggested`). */
export type OrderingSource = Exclude<AliasSource, 'suggested'>;

/** Sources that may be used to order (spec table: every source but `suggested`). */
export function usableToOrder(source: AliasSource): source is OrderingSource {
  return source !== 'suggested';
}

// ---- rule 1: symmetry ----

/** The stored form of an unordered pair: the smaller id first (exact string comparison). */
export function canonicalPair(a: string, b: string): [string, string] {
  return a < b ? [a, b] : [b, a];
}

export function otherSide(pair: { skuA: string; skuB: string }, id: string): string | null {
  if (pair.skuA === id) return pair.skuB;
  if (pair.skuB === id) return pair.skuA;
  return null;
}

/** The stored aliases of `id` read from either column: A→B is also B→A. */
export function storedAliasesOf(id: string, pairs: readonly StoredPair[]): Alias[] {
  const out: Alias[] = [];
  for (const p of pairs) {
    const other = otherSide(p, id);
    if (other === null || other === id) continue;
    out.push({ skuId: other, source: (p.source as AliasSource) ?? 'manual', confirmedAt: p.confirmedAt });
  }
  return out;
}

// ---- rule 2: the implied vendor alias ----

/**
 * The `vendor` alias implied for `id` when its vendor declared one id space for both roles: the same vendor_sku in
 * the vendor's other namespace. Never stored, never confirmed.
 */
export function impliedVendorAlias(id: string, sharesIdSpace: boolean): Alias | null {
  const p = parseSkuId(id);
  if (!p || !sharesIdSpace) return null;
  const otherRole: Role = p.role === 'machine' ? 'supply' : 'machine';
  return { skuId: `${p.vendor}-${otherRole}:${p.vendorSku}`, source: 'vendor', confirmedAt: null };
}

// ---- rule 3: precedence ----

const RANK: Record<AliasSource, number> = { manual: 0, barcode: 1, vendor: 2, suggested: 3 };

/**
 * One alias per sku_id, in this precedence: stored (as recorded) > barcode (computed) > vendor (implied) >
 * suggested. The subject itself and ids of its own namespace are never aliases. Output order: stored first, then
 * by precedence, then by id.
 */
export function mergeAliases(
  subject: string,
  groups: { stored?: readonly Alias[]; barcode?: readonly Alias[]; implied?: readonly (Alias | null)[]; suggested?: readonly Alias[] },
): Alias[] {
  const subjectNs = parseSkuId(subject)?.namespace;
  const chosen = new Map<string, { alias: Alias; rank: number }>();
  const offer = (a: Alias | null | undefined, rank: number) => {
    if (!a || a.skuId === subject) return;
    if (parseSkuId(a.skuId)?.namespace === subjectNs) return;
    const had = chosen.get(a.skuId);
    if (!had || rank < had.rank) chosen.set(a.skuId, { alias: a, rank });
  };
  for (const a of groups.stored ?? []) offer(a, -1);
  for (const a of groups.barcode ?? []) offer(a, RANK.barcode);
  for (const a of groups.implied ?? []) offer(a, RANK.vendor);
  for (const a of groups.suggested ?? []) offer(a, RANK.suggested);
  return [...chosen.values()]
    .sort((x, y) => x.rank - y.rank || (x.alias.skuId < y.alias.skuId ? -1 : x.alias.skuId > y.alias.skuId ? 1 : 0))
    .map((c) => c.alias);
}

// ---- rule 4: what a PUT stores ----

/**
 * The source recorded for an alias sent with PUT: an operator's statement is a confirmation, so `manual` (default),
 * `vendor` and `barcode` are all recorded as `manual`. `suggested` cannot be stored (it is unconfirmed by definition).
 */
export function storedSourceFor(requested: unknown): { ok: true; source: 'manual' } | { ok: false; reason: string } {
  if (requested === undefined || requested === null) return { ok: true, source: 'manual' };
  if (requested === 'manual' || requested === 'vendor' || requested === 'barcode') return { ok: true, source: 'manual' };
  if (requested === 'suggested') {
    return { ok: false, reason: 'a suggested alias is unconfirmed and cannot be stored; send it with source manual to confirm it' };
  }
  return { ok: false, reason: `source must be one of ${ALIAS_SOURCES.join(', ')}` };
}

/** Why an alias in a PUT is refused, or null when it can be stored for `subject`. */
export function aliasTargetProblem(subject: string, target: string): string | null {
  const s = parseSkuId(subject);
  const t = parseSkuId(target);
  if (!t) return 'is not a sku_id <vendor>-<role>:<vendor_sku>';
  if (target === subject) return 'is the sku itself';
  if (s && s.namespace === t.namespace) return `is in the same namespace ${t.namespace}; an alias names the good in another namespace`;
  return null;
}

// ---- rules 5, 6, 7: resolution against supplier catalogs ----

/** What a supplier catalog says about one supply sku today. */
export type SupplyResolution =
  | { state: 'carried'; priced: boolean }
  | { state: 'dropped' }
  | { state: 'unreachable'; reason: string }
  | { state: 'unsupported'; reason: string };

/**
 * purchasable_from[]: the supply ids among the subject (when it is a supply id) and its aliases that may be used to
 * order (not `suggested`), that the supplier carries today and that have a price.
 */
export function purchasableFrom(
  subject: string,
  aliases: readonly Alias[],
  resolve: (supplySkuId: string) => SupplyResolution | undefined,
): { sku_id: string; via: OrderingSource | 'self' }[] {
  const candidates: { sku_id: string; via: OrderingSource | 'self' }[] = [];
  if (parseSkuId(subject)?.role === 'supply') candidates.push({ sku_id: subject, via: 'self' });
  for (const a of aliases) {
    if (!usableToOrder(a.source)) continue;
    if (parseSkuId(a.skuId)?.role !== 'supply') continue;
    candidates.push({ sku_id: a.skuId, via: a.source });
  }
  return candidates.filter((c) => {
    const r = resolve(c.sku_id);
    return r?.state === 'carried' && r.priced;
  });
}

/**
 * Warnings for the aliases whose supply side could not be resolved: a dropped mapping stays in aliases[] with an
 * `unresolved_sku` warning (rule 6); an unreachable or unsupported catalog keeps the entry and the warning says why
 * (rule 7). `basePath` is the JSONPath of the aliases array, e.g. `$.aliases` or `$.variants[2].aliases`.
 */
export function aliasWarnings(
  aliases: readonly Alias[],
  resolve: (supplySkuId: string) => SupplyResolution | undefined,
  basePath: string,
): UcpMessage[] {
  const out: UcpMessage[] = [];
  aliases.forEach((a, i) => {
    if (a.source === 'suggested') return;
    if (parseSkuId(a.skuId)?.role !== 'supply') return;
    const r = resolve(a.skuId);
    const path = `${basePath}[${i}]`;
    if (!r) return;
    if (r.state === 'dropped') {
      out.push(message('unresolved_sku', 'warning', `${a.skuId} (${a.source} alias) is no longer in the supplier's catalog; the mapping is kept`, path));
    } else if (r.state === 'unreachable') {
      out.push(message('unresolved_sku', 'warning', `${a.skuId} (${a.source} alias) could not be checked: the catalog could not be reached (${r.reason}); the mapping is kept`, path));
    } else if (r.state === 'unsupported') {
      out.push(message('unresolved_sku', 'warning', `${a.skuId} (${a.source} alias) could not be checked: ${r.reason}; the mapping is kept`, path));
    }
  });
  return out;
}

// ---- suggestions ----

/** Minimum title similarity (Dice over words) for a `suggested` alias, and how many are offered per sku. */
export const SUGGEST_MIN_SIMILARITY = 0.5;
export const SUGGEST_MAX = 3;

/** The best-scoring candidates above the threshold, as unconfirmed `suggested` aliases. */
export function pickSuggestions(candidates: readonly { skuId: string; score: number }[]): Alias[] {
  return [...candidates]
    .filter((c) => c.score >= SUGGEST_MIN_SIMILARITY)
    .sort((a, b) => b.score - a.score || (a.skuId < b.skuId ? -1 : 1))
    .slice(0, SUGGEST_MAX)
    .map((c) => ({ skuId: c.skuId, source: 'suggested' as const, confirmedAt: null }));
}
