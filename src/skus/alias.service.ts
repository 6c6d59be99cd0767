import { Injectable } from '@nestjs/common';
import { message, UcpMessage } from '../common/envelope';
import { toPlus8 } from '../common/time';
import { CatalogReads } from '../catalog/catalog-reads';
import { similarCandidates, titleSimilarity, tokenize, wordSetSimilarity } from '../catalog/catalog-index.rules';
import { SlotReadRepository } from '../catalog/slot-read.repository';
import { parseSkuId } from '../identifiers/identifiers';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import {
  Alias,
  aliasWarnings,
  impliedVendorAlias,
  mergeAliases,
  pickSuggestions,
  purchasableFrom,
  storedAliasesOf,
  SupplyResolution,
} from './alias.rules';
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
 */
@Injectable()
export class AliasService {
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
    const supplyNs = this.supplyNamespaces();
    const catalogs = new Map(await Promise.all(supplyNs.map(async (ns) => [ns, await reads.get(ns)] as const)));
    const unreachable = [...catalogs.entries()].filter(([, r]) => !r.ok).map(([ns, r]) => ({ namespace: ns, reason: r.ok ? '' : r.error.message }));

    // Facts: machine skus from slots, supply skus from their catalogs.
    const facts = new Map<string, SkuFacts>();
    const machineIds = ids.filter((id) => parseSkuId(id)?.role === 'machine');
    for (const row of await this.slots.machineFacts(machineIds)) {
      const f = facts.get(row.skuId) ?? { title: row.title, barcodes: [] };
      if (row.barcode && !f.barcodes.includes(row.barcode)) f.barcodes.push(row.barcode);
      facts.set(row.skuId, f);
    }
    for (const id of ids) {
      const p = parseSkuId(id);
      if (p?.role !== 'supply') continue;
      const r = catalogs.get(p.namespace) ?? (this.registry.entry(p.namespace) ? await reads.get(p.namespace) : undefined);
      if (r?.ok) {
        const product = r.snapshot.bySku.get(p.vendorSku);
        if (product) facts.set(id, { title: product.title, barcodes: product.barcode ? [product.barcode] : [] });
      }
    }

    // Barcode aliases: machine side from slots, supply side from every reachable catalog's barcode map.
    const allBarcodes = [...new Set([...facts.values()].flatMap((f) => f.barcodes))];
    const machineByBarcode = new Map<string, string[]>();
    for (const row of await this.slots.skusByBarcodes(allBarcodes)) {
      machineByBarcode.set(row.barcode, [...(machineByBarcode.get(row.barcode) ?? []), row.skuId]);
    }
    const now = toPlus8(Date.now());
    const storedRows = await this.stored.touching(ids);
    const storedPairs = storedRows.map((r) => ({ skuA: r.skuA, skuB: r.skuB, source: r.source, confirmedAt: toPlus8(r.confirmedAt) }));
    const supplyTitles = await this.lazyMachineTitles();

    const sets = new Map<string, AliasSet>();
    for (const id of ids) {
      const p = parseSkuId(id);
      if (!p) continue;
      const f = facts.get(id);
      const barcode: Alias[] = [];
      const suggested: { sku_id: string; score: number }[] = [];
      for (const b of f?.barcodes ?? []) {
        for (const m of machineByBarcode.get(b) ?? []) barcode.push({ sku_id: m, source: 'barcode', confirmed_at: now });
        for (const [ns, r] of catalogs) {
          if (!r.ok) continue;
          for (const pos of r.snapshot.index.byBarcode.get(b) ?? []) {
            barcode.push({ sku_id: `${ns}:${r.snapshot.products[pos].vendorSku}`, source: 'barcode', confirmed_at: toPlus8(r.snapshot.fetchedAt) });
          }
        }
      }
      if (f?.title) {
        if (p.role === 'machine') {
          for (const [ns, r] of catalogs) {
            if (!r.ok) continue;
            for (const pos of similarCandidates(r.snapshot.index, f.title)) {
              const prod = r.snapshot.products[pos];
              suggested.push({ sku_id: `${ns}:${prod.vendorSku}`, score: titleSimilarity(f.title, prod.title) });
            }
          }
        } else {
          const mine = new Set(tokenize(f.title));
          for (const t of await supplyTitles()) suggested.push({ sku_id: t.skuId, score: wordSetSimilarity(mine, t.words) });
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
      const t = parseSkuId(a.sku_id);
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

  /** Machine titles as word sets, loaded once per batch and only when a supply sku needs suggestions. */
  private async lazyMachineTitles(): Promise<() => Promise<{ skuId: string; words: Set<string> }[]>> {
    let cached: Promise<{ skuId: string; words: Set<string> }[]> | null = null;
    return () => (cached ??= this.slots.machineTitles().then((rows) => rows.map((r) => ({ skuId: r.skuId, words: new Set(tokenize(r.title)) }))));
  }
}
