import { Injectable } from '@nestjs/common';
import { message, UcpMessage } from '../common/envelope';
import { DomainError, Errors } from '../common/errors';
import { CatalogReads } from '../catalog/catalog-reads';
import { SlotReadRepository } from '../catalog/slot-read.repository';
import { SupplyCatalogService } from '../catalog/supply-catalog.service';
import { cny, renderSupplyVariant, SupplyVariant } from '../catalog/variant.rules';
import { ParsedSkuId, requireLocationId, requireSkuId } from '../identifiers/identifiers';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { AliasService } from './alias.service';
import type { SkuRecordResponse } from './skus.responses';

/** A SKU record as the API shows it (its declared type is the response class: one shape, the compiler ties them). */
export type SkuRecord = Omit<SkuRecordResponse, 'ucp'>;

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
    let slots: SkuRecord['slots'];
    if (id.role === 'machine') {
      const rows = await this.slots.bySkuIds([id.skuId], location);
      known = rows.length > 0;
      title = rows[0]?.title ?? null;
      slots = rows.map((s) => ({ slot_id: s.id, location: s.locationId, stock: s.stock, price: cny(s.priceFen), locked: s.priceLocked }));
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
    const purchasable: SkuRecord['purchasable_from'] = [];
    for (const p of this.aliases.purchasable(id.skuId, set, batch.resolve)) {
      const parsed = requireSkuId(p.sku_id, '$.purchasable_from');
      const r = await reads.get(parsed.namespace);
      const product = r.ok ? r.snapshot.bySku.get(parsed.vendorSku) : undefined;
      if (product) purchasable.push({ ...renderSupplyVariant(parsed.namespace, product), via: p.via });
    }
    const record: SkuRecord = {
      id: id.skuId,
      namespace: id.namespace,
      vendor: id.vendor,
      role: id.role,
      vendor_sku: id.vendorSku,
      title: title ?? facts?.title ?? null,
      barcodes: (facts?.barcodes ?? []).map((value) => ({ type: barcodeType(value), value })),
      aliases: set.aliases,
      purchasable_from: purchasable,
      messages,
    };
    if (slots) record.slots = slots;
    return record;
  }
}

function errText(e: DomainError): string {
  return e.message;
}

function barcodeType(v: string): string {
  if (/^\d{13}$/.test(v)) return 'ean13';
  if (/^\d{8}$/.test(v)) return 'ean8';
  if (/^\d{12}$/.test(v)) return 'upca';
  if (/^\d{14}$/.test(v)) return 'gtin14';
  return 'other';
}
