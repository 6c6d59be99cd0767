import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/errors';
import { CatalogReads } from '../../supply-catalog/catalog-reads';
import { SupplyCatalogService } from '../../supply-catalog/supply-catalog.service';
import { parseSkuId } from '../../identifiers/identifiers';
import { PartnerRegistry } from '../../partners/registry/partner-registry';
import { AliasSource } from '../../skus/alias.rules';
import { AliasService } from '../../skus/alias.service';
import { chooseSupplier, Resolution, SupplyOffer } from './resolution.rules';
import { markKey, UnavailableRepository } from '../unavailable/unavailable.repository';
import { markHolds } from '../unavailable/unavailable.rules';

export interface Resolutions {
  /** Machine sku id → the chosen supplier offer, or null when nobody sells the good. */
  byId: Map<string, Resolution | null>;
  /** Supplier catalogs that could not be read: their offers are unknown. */
  unavailable: { namespace: string; error: DomainError }[];
}

/**
 * Resolves machine goods to what can be bought, through the SKU registry: `purchasable_from[]` of each machine sku
 * (the same rules as GET /skus/{id}: manual, barcode and vendor aliases, carried today and priced), then the
 * supplier choice of resolution.rules.ts. Each catalog is read once per call.
 */
@Injectable()
export class SupplyResolutionService {
  constructor(
    private readonly aliases: AliasService,
    private readonly catalogs: SupplyCatalogService,
    private readonly registry: PartnerRegistry,
    private readonly unavailable: UnavailableRepository,
  ) {}

  async resolve(machineSkuIds: string[]): Promise<Resolutions> {
    const ids = [...new Set(machineSkuIds)];
    const reads = new CatalogReads(this.catalogs);
    const unavailable: Resolutions['unavailable'] = [];
    for (const ns of this.aliases.supplyNamespaces()) {
      const r = await reads.get(ns);
      if (!r.ok) unavailable.push({ namespace: ns, error: r.error });
    }
    const byId = new Map<string, Resolution | null>();
    if (ids.length === 0) return { byId, unavailable };
    const batch = await this.aliases.batch(ids, reads);
    const preferred = this.registry.defaults().supply ?? null;
    // Goods a supplier refused as unavailable are passed over until its catalog offers them again.
    const marks = await this.unavailable.all();
    for (const id of ids) {
      const set = batch.sets.get(id) ?? { aliases: [], unsearched: [] };
      const offers: SupplyOffer[] = [];
      for (const p of this.aliases.purchasable(id, set, batch.resolve)) {
        const parsed = parseSkuId(p.sku_id);
        if (!parsed || p.via === 'self') continue;
        const r = await reads.get(parsed.namespace);
        const product = r.ok ? r.snapshot.bySku.get(parsed.vendorSku) : undefined;
        if (!product) continue;
        const marked = marks.get(markKey(parsed.namespace, parsed.vendorSku));
        if (marked && markHolds(marked, r.ok ? { fetchedAt: r.snapshot.fetchedAt, product } : null)) continue;
        offers.push({
          sku_id: p.sku_id,
          namespace: parsed.namespace,
          vendor_sku: parsed.vendorSku,
          via: p.via as AliasSource,
          title: product.title,
          packSize: product.packSize,
          packPriceFen: product.packPriceFen,
          eachPriceFen: product.eachPriceFen,
        });
      }
      byId.set(id, chooseSupplier(offers, preferred));
    }
    return { byId, unavailable };
  }
}
