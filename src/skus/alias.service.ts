import { Injectable } from '@nestjs/common';
import { message, UcpMessage } from '../common/envelope/envelope';
import { CatalogReads } from '../supply-catalog/catalog-reads';
import { similarProducts, similarTitles } from '../supply-catalog/title-similarity.rules';
import { SlotReadRepository } from '../supply-catalog/slot-read.repository';
import { ParsedSkuId, parseSkuId as parseId } from '../identifiers/identifiers';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import {
  Alias,
  aliasWarnings,
  impliedVendorAlias,
  mergeAliases,
  pickSuggestions,
  purchasableFrom,
  storedAliasesOf,
  SUGGEST_MAX,
  SUGGEST_MIN_SIMILARITY,
  SupplyResolution,
} from './alias.rules';
import { buildMachineDirectory, MachineDirectory, sameRows } from './machine-directory.rules';
import { SkuAliasRepository } from './sku-alias.repository';

/** What is known about one sku: its title and barcodes, from slots (machine) or its catalog (supply). */
export interface SkuFacts {
  title: string | null;
  barcodes: string[];
}

export interface AliasSet {
  aliases: Alias[];
  /** Catalogs that could not be searched for barcode / suggested aliases of this sku (record-level warnings). */
  unsearched: { namespace: string; reason: string }[];
}

/** The aliases of many skus at once, with a synchronous resolver of supply ids for rules 5 to 7. */
export interface AliasBatch {
  sets: Map<string, AliasSet>;
  facts: Map<string, SkuFacts>;
  resolve: (supplySkuId: string) => SupplyResolution | undefined;
}

/**
 * Computes alias lists (spec "Alias", seven rules in alias.rules.ts): stored pairs, automatic `barcode` aliases
 * (the same EAN on a machine slot and in a supplier catalog, or in two catalogs), the implied `vendor` alias, and
 * `suggested` aliases by title similarity across roles. Batched so that a 50-id lookup costs a few queries.
 *
 * Cost per request stays small on a 100,000-product catalog because what similarity needs is prepared ahead:
 * - supply side: the catalog index built once per catalog fetch carries each product's title words and a barcode
 *   map, so a machine sku's suggestions walk a few bounded posting lists and score about 20 candidates
 *   (similarProducts), and its barcode aliases are map reads;
 * - machine side: the distinct (sku, title, barcode) rows of the synced slots are read once per request (one query
 *   for facts, barcode aliases and titles), but the directory built from them (machine-directory.rules.ts, with its
 *   title word index) is rebuilt only when the rows changed, so a supply sku's suggestions only visit machine skus
 *   sharing a word with it, and nothing proportional to the fleet is allocated per request.
 */
@Injectable()
export class AliasService {
  /** The machine directory last read, reused while the slots' (sku, title, barcode) rows stay the same. */
  private machine: MachineDirectory | null = null;

  constructor(
    private readonly registry: PartnerRegistry,
    private readonly slots: SlotReadRepository,
    private readonly stored: SkuAliasRepository,
  ) {}

  /** Live supply namespaces whose catalog can be read. */
  supplyNamespaces(): string[] {
    return this.registry
      .list()
      .filter((e) => e.role === 'supply' && e.status === 'live' && !e.problem && e.capabilities.includes('catalog'))
      .map((e) => e.namespace);
  }

  async batch(ids: string[], reads: CatalogReads): Promise<AliasBatch> {
    const parsed = new Map<string, ParsedSkuId | null>();
    const parseSkuId = (id: string): ParsedSkuId | null => {
      let p = parsed.get(id);
      if (p === undefined) parsed.set(id, (p = parseId(id)));
      return p;
    };
    const supplyNs = this.supplyNamespaces();
    const catalogs = new Map(await Promise.all(supplyNs.map(async (ns) => [ns, await reads.get(ns)] as const)));
    const unreachable = [...catalogs.entries()].filter(([, r]) => !r.ok).map(([ns, r]) => ({ namespace: ns, reason: r.ok ? '' : r.error.message }));

    // Facts: machine skus from slots, supply skus from their catalogs.
    const machine = await this.machineDirectory();
    const facts = new Map<string, SkuFacts>();
    for (const id of ids) {
      const p = parseSkuId(id);
      if (p?.role === 'machine') {
        const f = machine.facts.get(id);
        if (f) facts.set(id, { title: f.title, barcodes: [...f.barcodes] });
        continue;
      }
      if (p?.role !== 'supply') continue;
      const r = catalogs.get(p.namespace) ?? (this.registry.entry(p.namespace) ? await reads.get(p.namespace) : undefined);
      if (r?.ok) {
        const product = r.snapshot.bySku.get(p.vendorSku);
        if (product) facts.set(id, { title: product.title, barcodes: product.barcode ? [product.barcode] : [] });
      }
    }

    // Barcode aliases: machine side from the slots directory, supply side from every reachable catalog's barcode map.
    const now = Date.now();
    const storedPairs = await this.stored.touching(ids);

    const sets = new Map<string, AliasSet>();
    for (const id of ids) {
      const p = parseSkuId(id);
      if (!p) continue;
      const f = facts.get(id);
      const barcode: Alias[] = [];
      const suggested: { skuId: string; score: number }[] = [];
      for (const b of f?.barcodes ?? []) {
        for (const m of machine.byBarcode.get(b) ?? []) barcode.push({ skuId: m, source: 'barcode', confirmedAt: now });
        for (const [ns, r] of catalogs) {
          if (!r.ok) continue;
          for (const pos of r.snapshot.index.byBarcode.get(b) ?? []) {
            barcode.push({ skuId: `${ns}:${r.snapshot.products[pos].vendorSku}`, source: 'barcode', confirmedAt: r.snapshot.fetchedAt });
          }
        }
      }
      if (f?.title) {
        if (p.role === 'machine') {
          for (const [ns, r] of catalogs) {
            if (!r.ok) continue;
            for (const c of similarProducts(r.snapshot.index, f.title, SUGGEST_MIN_SIMILARITY)) {
              suggested.push({ skuId: `${ns}:${r.snapshot.products[c.pos].vendorSku}`, score: c.score });
            }
          }
        } else {
          for (const c of similarTitles(machine.titles, f.title, SUGGEST_MIN_SIMILARITY, SUGGEST_MAX)) suggested.push({ skuId: c.key, score: c.score });
        }
      }
      const aliases = mergeAliases(id, {
        stored: storedAliasesOf(id, storedPairs),
        barcode,
        implied: [impliedVendorAlias(id, this.registry.sharesIdSpace(p.vendor))],
        suggested: pickSuggestions(suggested),
      });
      const searchedRoleIsSupply = p.role === 'machine' || (f?.barcodes.length ?? 0) > 0;
      sets.set(id, { aliases, unsearched: searchedRoleIsSupply ? unreachable : [] });
    }

    // Pre-read every supply namespace an alias points at, so the resolver can answer synchronously.
    const targetNs = new Set<string>();
    for (const s of sets.values()) for (const a of s.aliases) {
      const t = parseSkuId(a.skuId);
      if (t?.role === 'supply') targetNs.add(t.namespace);
    }
    for (const id of ids) {
      const t = parseSkuId(id);
      if (t?.role === 'supply') targetNs.add(t.namespace);
    }
    const resolved = new Map<string, SupplyResolution | { state: 'read'; read: Awaited<ReturnType<CatalogReads['get']>> }>();
    for (const ns of targetNs) {
      const e = this.registry.entry(ns);
      if (!e || e.problem || e.status !== 'live' || e.role !== 'supply') {
        resolved.set(ns, { state: 'unsupported', reason: `namespace ${ns} is not supported (${!e ? 'not registered' : e.problem ?? e.status})` });
      } else {
        resolved.set(ns, { state: 'read', read: await reads.get(ns) });
      }
    }
    const resolve = (skuId: string): SupplyResolution | undefined => {
      const t = parseSkuId(skuId);
      if (!t || t.role !== 'supply') return undefined;
      const r = resolved.get(t.namespace);
      if (!r) return undefined;
      if (r.state !== 'read') return r;
      if (!r.read.ok) return { state: 'unreachable', reason: r.read.error.message };
      const product = r.read.snapshot.bySku.get(t.vendorSku);
      if (!product) return { state: 'dropped' };
      return { state: 'carried', priced: product.eachPriceFen > 0 && product.packPriceFen > 0 };
    };
    return { sets, facts, resolve };
  }

  /** Warnings of one alias set at `path` (the aliases array): unresolved_sku per alias, plus unsearched catalogs. */
  warnings(set: AliasSet, resolve: AliasBatch['resolve'], aliasesPath: string, recordPath = '$'): UcpMessage[] {
    const out = aliasWarnings(set.aliases, resolve, aliasesPath);
    for (const u of set.unsearched) {
      out.push(
        message(
          'upstream_unreachable',
          'warning',
          `the catalog of ${u.namespace} could not be reached (${u.reason}); barcode and suggested aliases from it are not shown`,
          recordPath,
        ),
      );
    }
    return out;
  }

  purchasable(subject: string, set: AliasSet, resolve: AliasBatch['resolve']) {
    return purchasableFrom(subject, set.aliases, resolve);
  }

  /**
   * The machine directory (facts, barcodes, title index) of the synced slots: read on every call, so a sync is seen
   * at once, and rebuilt only when the rows changed since the last call.
   */
  private async machineDirectory(): Promise<MachineDirectory> {
    const rows = await this.slots.machineSkuRows();
    if (!this.machine || !sameRows(this.machine, rows)) this.machine = buildMachineDirectory(rows);
    return this.machine;
  }
}
