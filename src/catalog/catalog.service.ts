import { Injectable } from '@nestjs/common';
import { message, UcpMessage, warning } from '../common/envelope/envelope';
import { Errors } from '../common/errors/errors';
import { ParsedSkuId, requireLocationId, requireNamespace, requireSkuId, skuId } from '../identifiers/identifiers';
import { SlotEntity } from '../inventory/slot.entity';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { Alias } from '../skus/alias.rules';
import { AliasService } from '../skus/alias.service';
import { combine, matchCategories, matchQuery, recordMatches } from '../supply-catalog/catalog-index.rules';
import { CatalogReads } from '../supply-catalog/catalog-reads';
import { SlotReadRepository } from '../supply-catalog/slot-read.repository';
import { CatalogSnapshot, SupplyCatalogService } from '../supply-catalog/supply-catalog.service';
import { groupById, productPriceWarning, SlotView, SupplyProductView, variantPath } from '../supply-catalog/variant.rules';
import { decodeCursor, pageOf, SEARCH_DEFAULT_LIMIT, searchFingerprint } from './pagination.rules';

/** What a search asks (the edge validates it: api/catalog.dto.ts). */
export interface CatalogSearch {
  query?: string;
  filters: { namespace: string; location?: string; categories?: string[] };
  pagination?: { cursor?: string; limit?: number };
}

/** What a lookup asks (the edge validates it: api/catalog.dto.ts). */
export interface CatalogLookup {
  ids: string[];
  filters?: { location?: string };
}

/** A good that search or lookup found: a supplier product of a namespace, or a slot of the synced machine copy. */
export type CatalogGood = { role: 'supply'; namespace: string; product: SupplyProductView } | { role: 'machine'; slot: SlotView };

/** A looked-up good, with the requested id it answers and that id's aliases. */
export interface LookupGood {
  good: CatalogGood;
  input: string;
  aliases: Alias[];
}

/**
 * The answer's goods grouped into UCP's products (one per sku_id, each with its variants: see groupIntoProducts).
 * The service groups them, unrendered, because its warnings point into that layout (`$.products[i].variants[j]`);
 * catalog.view.ts only renders each good.
 */
export interface CatalogSearchResult {
  products: CatalogGood[][];
  pagination: ReturnType<typeof pageOf>['pagination'];
  messages: UcpMessage[];
}

export interface CatalogLookupResult {
  products: LookupGood[][];
  messages: UcpMessage[];
}

const goodId = (g: CatalogGood): string => (g.role === 'supply' ? skuId(g.namespace, g.product.vendorSku) : g.slot.skuId);

/** Search and lookup over supplier catalogs (cached, indexed in memory) and the synced machine copy (`slots`). */
@Injectable()
export class CatalogService {
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly catalogs: SupplyCatalogService,
    private readonly slots: SlotReadRepository,
    private readonly aliases: AliasService,
  ) {}

  async search(body: CatalogSearch): Promise<CatalogSearchResult> {
    const ns = requireNamespace(body.filters.namespace, '$.filters.namespace');
    const capability = ns.role === 'supply' ? 'catalog' : 'inventory';
    this.registry.usable(ns.namespace, ns.role, capability, '$.filters.namespace');
    const limit = body.pagination?.limit ?? SEARCH_DEFAULT_LIMIT;
    const categories = body.filters.categories?.filter((c) => c.trim() !== '');
    const location = ns.role === 'machine' ? requireLocationId(body.filters.location, '$.filters.location') : undefined;
    const fingerprint = searchFingerprint([ns.namespace, location ?? null, body.query ?? '', categories ?? []]);
    let offset = 0;
    if (body.pagination?.cursor !== undefined) {
      const o = decodeCursor(body.pagination.cursor, fingerprint);
      if (o === null) throw Errors.invalid('$.pagination.cursor', 'the cursor does not belong to this search (same query, filters and namespace)');
      offset = o;
    }
    if (ns.role === 'supply') return this.searchSupply(await this.catalogs.snapshot(ns.namespace), body.query, categories, { offset, limit }, fingerprint);
    return this.searchMachine(ns.namespace, location!, body.query, categories, { offset, limit }, fingerprint);
  }

  private searchSupply(snap: CatalogSnapshot, query: string | undefined, categories: string[] | undefined, page: { offset: number; limit: number }, fp: string): CatalogSearchResult {
    const positions = combine(snap.index, matchQuery(snap.index, query), matchCategories(snap.index, categories));
    const total = positions ? positions.length : snap.products.length;
    const { items, pagination } = pageOf(total, page, fp, (from, to) => {
      const out: CatalogGood[] = [];
      for (let i = from; i < to; i++) out.push({ role: 'supply', namespace: snap.namespace, product: snap.products[positions ? positions[i] : i] });
      return out;
    });
    const messages: UcpMessage[] = [];
    const { groups, at } = groupById(items, goodId);
    items.forEach((g, i) => {
      const w = g.role === 'supply' ? productPriceWarning(g.namespace, g.product, variantPath(at[i])) : null;
      if (w) messages.push(w);
    });
    messages.push(...rejectedWarnings(snap));
    return { products: groups, pagination, messages };
  }

  private async searchMachine(namespace: string, location: string, query: string | undefined, categories: string[] | undefined, page: { offset: number; limit: number }, fp: string): Promise<CatalogSearchResult> {
    const loc = await this.slots.location(location);
    if (!loc) throw Errors.notFound(`location ${location}`, '$.filters.location');
    if (loc.namespace !== namespace) {
      throw Errors.namespaceMismatch('$.filters.location', `location ${location} belongs to ${loc.namespace}, not ${namespace}`);
    }
    const rows = (await this.slots.atLocation(namespace, location)).filter((s) => recordMatches({ title: s.title, spec: null, barcode: s.barcode }, query, categories));
    const { items, pagination } = pageOf(rows.length, page, fp, (from, to) => rows.slice(from, to).map((slot): CatalogGood => ({ role: 'machine', slot })));
    return { products: groupById(items, goodId).groups, pagination, messages: [] };
  }

  async lookup(body: CatalogLookup): Promise<CatalogLookupResult> {
    const location = body.filters?.location !== undefined ? requireLocationId(body.filters.location, '$.filters.location') : undefined;
    // Validate every id first (400 before any partner is called); duplicates are answered once.
    const firstIndex = new Map<string, number>();
    const parsed: ParsedSkuId[] = [];
    body.ids.forEach((raw, i) => {
      const p = requireSkuId(raw, `$.ids[${i}]`);
      this.registry.usable(p.namespace, p.role, p.role === 'supply' ? 'catalog' : 'inventory', `$.ids[${i}]`);
      if (!firstIndex.has(p.skuId)) {
        firstIndex.set(p.skuId, i);
        parsed.push(p);
      }
    });
    const reads = new CatalogReads(this.catalogs);
    const messages: UcpMessage[] = [];
    const answered: { good: CatalogGood; input: string }[] = [];
    let unreachableIds = 0;

    const machineIds = parsed.filter((p) => p.role === 'machine').map((p) => p.skuId);
    const slotRows = await this.slots.bySkuIds(machineIds, location);
    const bySku = new Map<string, SlotEntity[]>();
    for (const s of slotRows) bySku.set(s.skuId, [...(bySku.get(s.skuId) ?? []), s]);

    for (const p of parsed) {
      const path = `$.ids[${firstIndex.get(p.skuId)}]`;
      if (p.role === 'machine') {
        const rows = bySku.get(p.skuId) ?? [];
        if (rows.length === 0) {
          const where = location ? ` at location ${location}` : '';
          messages.push(message('not_found', 'warning', `${p.skuId} is not in any synced machine${where}`, path));
        }
        for (const slot of rows) answered.push({ good: { role: 'machine', slot }, input: p.skuId });
        continue;
      }
      const r = await reads.get(p.namespace);
      if (!r.ok) {
        unreachableIds++;
        messages.push(message('upstream_unreachable', 'warning', `${p.skuId} could not be looked up: ${r.error.message}`, path));
        continue;
      }
      const product = r.snapshot.bySku.get(p.vendorSku);
      if (!product) {
        messages.push(message('not_found', 'warning', `${p.skuId} is not in the catalog of ${p.namespace}`, path));
        continue;
      }
      answered.push({ good: { role: 'supply', namespace: p.namespace, product }, input: p.skuId });
    }
    if (answered.length === 0 && unreachableIds > 0 && unreachableIds === parsed.length) {
      const first = messages[0];
      throw Errors.upstreamUnreachable('the catalog', first ? first.content : 'no catalog answered');
    }

    const batch = await this.aliases.batch([...new Set(answered.map((a) => a.input))], reads);
    const setOf = (input: string) => batch.sets.get(input) ?? { aliases: [], unsearched: [] };
    const found: LookupGood[] = answered.map((a) => ({ ...a, aliases: setOf(a.input).aliases }));
    const { groups, at } = groupById(found, (f) => goodId(f.good));
    found.forEach(({ good, input }, i) => {
      const path = variantPath(at[i]);
      const set = setOf(input);
      messages.push(...this.aliases.warnings(set, batch.resolve, `${path}.aliases`, path));
      const w = good.role === 'supply' ? productPriceWarning(good.namespace, good.product, path) : null;
      if (w) messages.push(w);
    });
    return { products: groups, messages: dedupeWarnings(messages) };
  }
}

function rejectedWarnings(snap: CatalogSnapshot): UcpMessage[] {
  return snap.rejected.map((r) =>
    warning('non_conforming_record', `${snap.namespace} catalog record ${r.id ?? `#${r.index}`} was refused: ${r.reason}`, '$.products'),
  );
}

/** The same record-level warning (e.g. one unreachable catalog) is said once per path. */
function dedupeWarnings(messages: UcpMessage[]): UcpMessage[] {
  const seen = new Set<string>();
  return messages.filter((m) => {
    const k = `${m.code}|${m.path}|${m.content}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
