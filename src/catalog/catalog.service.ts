import { Injectable } from '@nestjs/common';
import { message, UcpMessage, warning } from '../common/envelope';
import { Errors } from '../common/errors';
import { ParsedSkuId, requireLocationId, requireNamespace, requireSkuId } from '../identifiers/identifiers';
import { SlotEntity } from '../inventory/slot.entity';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { Alias } from '../skus/alias.rules';
import { AliasService } from '../skus/alias.service';
import { combine, matchCategories, matchQuery, recordMatches } from '../supply-catalog/catalog-index.rules';
import { CatalogLookupBody, CatalogSearchBody, SEARCH_DEFAULT_LIMIT } from './catalog.dto';
import { CatalogReads } from '../supply-catalog/catalog-reads';
import { decodeCursor, pageOf, searchFingerprint } from './pagination.rules';
import { SlotReadRepository } from '../supply-catalog/slot-read.repository';
import { CatalogSnapshot, SupplyCatalogService } from '../supply-catalog/supply-catalog.service';
import { groupIntoProducts, MachineVariant, priceDerivedWarning, Product, renderMachineVariant, renderSupplyVariant, SupplyVariant, variantPath } from '../supply-catalog/variant.rules';

export type Variant = SupplyVariant | MachineVariant;
export type LookupVariant = Variant & { aliases: Alias[]; inputs: { id: string; match: 'exact' }[] };

/** Search and lookup answer UCP's catalog layout: `products[]`, each with its `variants[]` (see groupIntoProducts). */

/** Search and lookup over supplier catalogs (cached, indexed in memory) and the synced machine copy (`slots`). */
@Injectable()
export class CatalogService {
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly catalogs: SupplyCatalogService,
    private readonly slots: SlotReadRepository,
    private readonly aliases: AliasService,
  ) {}

  async search(body: CatalogSearchBody): Promise<{ products: Product<Variant>[]; pagination: object; messages: UcpMessage[] }> {
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

  private searchSupply(snap: CatalogSnapshot, query: string | undefined, categories: string[] | undefined, page: { offset: number; limit: number }, fp: string) {
    const positions = combine(snap.index, matchQuery(snap.index, query), matchCategories(snap.index, categories));
    const total = positions ? positions.length : snap.products.length;
    const { items, pagination } = pageOf(total, page, fp, (from, to) => {
      const out: SupplyVariant[] = [];
      for (let i = from; i < to; i++) out.push(renderSupplyVariant(snap.namespace, snap.products[positions ? positions[i] : i]));
      return out;
    });
    const messages: UcpMessage[] = [];
    const { products, at } = groupIntoProducts<Variant>(items);
    items.forEach((v, i) => {
      const w = priceDerivedWarning(v, variantPath(at[i]));
      if (w) messages.push(w);
    });
    messages.push(...rejectedWarnings(snap));
    return { products, pagination, messages };
  }

  private async searchMachine(namespace: string, location: string, query: string | undefined, categories: string[] | undefined, page: { offset: number; limit: number }, fp: string) {
    const loc = await this.slots.location(location);
    if (!loc) throw Errors.notFound(`location ${location}`, '$.filters.location');
    if (loc.namespace !== namespace) {
      throw Errors.namespaceMismatch('$.filters.location', `location ${location} belongs to ${loc.namespace}, not ${namespace}`);
    }
    const rows = (await this.slots.atLocation(namespace, location)).filter((s) => recordMatches({ title: s.title, spec: null, barcode: s.barcode }, query, categories));
    const { items, pagination } = pageOf(rows.length, page, fp, (from, to) => rows.slice(from, to).map(renderMachineVariant));
    return { products: groupIntoProducts<Variant>(items).products, pagination, messages: [] as UcpMessage[] };
  }

  async lookup(body: CatalogLookupBody): Promise<{ products: Product<LookupVariant>[]; messages: UcpMessage[] }> {
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
    const answered: { variant: Variant; input: string }[] = [];
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
        for (const s of rows) answered.push({ variant: renderMachineVariant(s), input: p.skuId });
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
      answered.push({ variant: renderSupplyVariant(p.namespace, product), input: p.skuId });
    }
    if (answered.length === 0 && unreachableIds > 0 && unreachableIds === parsed.length) {
      const first = messages[0];
      throw Errors.upstreamUnreachable('the catalog', first ? first.content : 'no catalog answered');
    }

    const batch = await this.aliases.batch([...new Set(answered.map((a) => a.input))], reads);
    const variants: LookupVariant[] = answered.map((a) => {
      const set = batch.sets.get(a.input) ?? { aliases: [], unsearched: [] };
      return { ...a.variant, aliases: set.aliases, inputs: [{ id: a.input, match: 'exact' as const }] };
    });
    const { products, at } = groupIntoProducts(variants);
    answered.forEach((a, i) => {
      const path = variantPath(at[i]);
      const set = batch.sets.get(a.input) ?? { aliases: [], unsearched: [] };
      messages.push(...this.aliases.warnings(set, batch.resolve, `${path}.aliases`, path));
      const w = 'sale_units' in a.variant ? priceDerivedWarning(a.variant, path) : null;
      if (w) messages.push(w);
    });
    return { products, messages: dedupeWarnings(messages) };
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
