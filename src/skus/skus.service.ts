import { Injectable } from '@nestjs/common';
import { message, UcpMessage } from '../common/envelope/envelope';
import { DomainError, Errors } from '../common/errors/errors';
import { CatalogReads } from '../supply-catalog/catalog-reads';
import { SlotReadRepository } from '../supply-catalog/slot-read.repository';
import { SupplyCatalogService } from '../supply-catalog/supply-catalog.service';
import { SupplyProductView } from '../supply-catalog/variant.rules';
import { SlotEntity } from '../inventory/slot.entity';
import { ParsedSkuId, requireLocationId, requireSkuId } from '../identifiers/identifiers';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { Alias } from './alias.rules';
import { AliasService } from './alias.service';

/** A supplier good this sku can be bought as, and how it was reached (`self` or the alias source). */
export interface PurchasableGood {
  namespace: string;
  product: SupplyProductView;
  via: 'self' | 'barcode' | 'manual' | 'vendor';
}

/** A SKU record (rendered by skus.view.ts). `aliases` are as the alias rules answer them (alias.rules.ts). */
export interface SkuRecord {
  id: ParsedSkuId;
  title: string | null;
  barcodes: string[];
  aliases: Alias[];
  purchasableFrom: PurchasableGood[];
  /** Machine SKUs: the slots holding it (filtered by location when given). */
  slots?: SlotEntity[];
  messages: UcpMessage[];
}

/** The SKU registry's records: identity, barcodes, aliases (seven rules, alias.rules.ts) and where a good can be bought. */
@Injectable()
export class SkusService {
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly catalogs: SupplyCatalogService,
    private readonly slots: SlotReadRepository,
    private readonly aliases: AliasService,
  ) {}

  async get(rawId: string, rawLocation?: string): Promise<SkuRecord> {
    const id = this.validId(rawId);
    const location = rawLocation === undefined || rawLocation === '' ? undefined : requireLocationId(rawLocation, '$.location');
    return this.record(id, location, new CatalogReads(this.catalogs));
  }

  /** A fresh set of catalog reads (each supply catalog read once for what one request asks). */
  reads(): CatalogReads {
    return new CatalogReads(this.catalogs);
  }

  /** A sku id of a registered namespace, from the path (400 / 404 otherwise). */
  validId(raw: string): ParsedSkuId {
    const id = requireSkuId(raw, '$.sku_id');
    this.registry.usable(id.namespace, id.role, undefined, '$.sku_id');
    return id;
  }

  /** The record of a sku (404 when neither a partner carries it nor a stored alias names it). */
  async record(id: ParsedSkuId, location: string | undefined, reads: CatalogReads): Promise<SkuRecord> {
    const messages: UcpMessage[] = [];
    let title: string | null = null;
    let known = false;
    let slots: SlotEntity[] | undefined;
    if (id.role === 'machine') {
      const rows = await this.slots.bySkuIds([id.skuId], location);
      known = rows.length > 0;
      title = rows[0]?.title ?? null;
      slots = rows;
      if (!known && location) throw Errors.notFound(`sku ${id.skuId} at location ${location}`, '$.location');
    } else {
      const r = await reads.get(id.namespace);
      if (!r.ok) {
        known = true; // rule 7: an unreachable catalog keeps the entry; the warning says why.
        messages.push(message('upstream_unreachable', 'warning', `the catalog of ${id.namespace} could not be reached (${errText(r.error)}); ${id.skuId} could not be checked`, '$.id'));
      } else {
        const product = r.snapshot.bySku.get(id.vendorSku);
        known = !!product;
        title = product?.title ?? null;
      }
    }
    const batch = await this.aliases.batch([id.skuId], reads);
    const set = batch.sets.get(id.skuId) ?? { aliases: [], unsearched: [] };
    const hasStored = set.aliases.some((a) => a.source === 'manual');
    if (!known) {
      if (!hasStored) throw Errors.notFound(`sku ${id.skuId}`, '$.sku_id');
      messages.push(message('unresolved_sku', 'warning', `${id.skuId} is no longer carried by ${id.namespace}; its stored aliases are kept`, '$.id'));
    }
    messages.push(...this.aliases.warnings(set, batch.resolve, '$.aliases'));
    const facts = batch.facts.get(id.skuId);
    const purchasable: PurchasableGood[] = [];
    for (const p of this.aliases.purchasable(id.skuId, set, batch.resolve)) {
      const parsed = requireSkuId(p.sku_id, '$.purchasable_from');
      const r = await reads.get(parsed.namespace);
      const product = r.ok ? r.snapshot.bySku.get(parsed.vendorSku) : undefined;
      if (product) purchasable.push({ namespace: parsed.namespace, product, via: p.via });
    }
    const record: SkuRecord = {
      id,
      title: title ?? facts?.title ?? null,
      barcodes: facts?.barcodes ?? [],
      aliases: set.aliases,
      purchasableFrom: purchasable,
      messages,
    };
    if (slots) record.slots = slots;
    return record;
  }
}

function errText(e: DomainError): string {
  return e.message;
}
