import { Injectable } from '@nestjs/common';
import { message, UcpMessage } from '../common/envelope';
import { DomainError, Errors } from '../common/errors';
import { CatalogReads } from '../catalog/catalog-reads';
import { SlotReadRepository } from '../catalog/slot-read.repository';
import { SupplyCatalogService } from '../catalog/supply-catalog.service';
import { cny, renderSupplyVariant, SupplyVariant } from '../catalog/variant.rules';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { ParsedSkuId, requireLocationId, requireSkuId } from '../identifiers/identifiers';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { Alias, aliasTargetProblem, AliasSource, canonicalPair, storedSourceFor } from './alias.rules';
import { AliasService } from './alias.service';
import { SkuAliasRepository } from './sku-alias.repository';
import { PutAliasesBody } from './skus.dto';

export interface SkuRecord {
  id: string;
  namespace: string;
  vendor: string;
  role: 'supply' | 'machine';
  vendor_sku: string;
  title: string | null;
  barcodes: { type: string; value: string }[];
  aliases: Alias[];
  purchasable_from: (SupplyVariant & { via: AliasSource | 'self' })[];
  /** Machine skus: where it sits (filtered by `location` when given). */
  slots?: { slot_id: string; location: string; stock: number; price: { amount: number; currency: 'CNY' }; locked: boolean }[];
  messages: UcpMessage[];
}


/** The SKU registry: identity, barcodes, aliases (seven rules, alias.rules.ts) and where a good can be bought. */
@Injectable()
export class SkusService {
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly catalogs: SupplyCatalogService,
    private readonly slots: SlotReadRepository,
    private readonly aliases: AliasService,
    private readonly stored: SkuAliasRepository,
    private readonly events: EventsService,
    private readonly tx: Tx,
  ) {}

  async get(rawId: string, rawLocation?: string): Promise<SkuRecord> {
    const id = this.validId(rawId);
    const location = rawLocation === undefined || rawLocation === '' ? undefined : requireLocationId(rawLocation, '$.location');
    return this.record(id, location, new CatalogReads(this.catalogs));
  }

  async putAliases(rawId: string, body: PutAliasesBody): Promise<SkuRecord> {
    const id = this.validId(rawId);
    const pairs: { skuA: string; skuB: string; source: string; confirmedAt: Date }[] = [];
    const now = new Date();
    const seen = new Set<string>();
    body.aliases.forEach((entry, i) => {
      const path = `$.aliases[${i}]`;
      const target = requireSkuId(entry.sku_id, `${path}.sku_id`);
      const problem = aliasTargetProblem(id.skuId, target.skuId);
      if (problem) throw Errors.invalid(`${path}.sku_id`, `${target.skuId} ${problem}`);
      this.registry.usable(target.namespace, target.role, undefined, `${path}.sku_id`);
      const src = storedSourceFor(entry.source);
      if (!src.ok) throw Errors.invalid(`${path}.source`, src.reason);
      if (seen.has(target.skuId)) return;
      seen.add(target.skuId);
      const [skuA, skuB] = canonicalPair(id.skuId, target.skuId);
      pairs.push({ skuA, skuB, source: src.source, confirmedAt: now });
    });
    const reads = new CatalogReads(this.catalogs);
    // The subject must be known (404 otherwise), checked before anything is written.
    await this.record(id, undefined, reads);
    await this.tx.run(async () => {
      await this.stored.replaceFor(id.skuId, pairs);
      await this.events.record({
        kind: 'sku.aliases_changed',
        summary: `aliases of ${id.skuId} set to ${pairs.length ? [...seen].join(', ') : 'none'}`,
        reasoning: 'operator PUT /skus/{sku_id}/aliases; every alias sent is recorded as manual (operator-confirmed)',
      });
    });
    return this.record(id, undefined, reads);
  }

  private validId(raw: string): ParsedSkuId {
    const id = requireSkuId(raw, '$.sku_id');
    this.registry.usable(id.namespace, id.role, undefined, '$.sku_id');
    return id;
  }

  private async record(id: ParsedSkuId, location: string | undefined, reads: CatalogReads): Promise<SkuRecord> {
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
