/** The JSON of a SKU record, rendered at the edge (its declared type is the response class). */
import { cny } from '../../common/money';
import { toPlus8 } from '../../common/time';
import { renderSupplyVariant } from '../../supply-catalog/variant.rules';
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import type { Alias } from '../alias.rules';
import type { SkuRecord } from '../skus.service';
import type { AliasView, SkuRecordResponse } from './skus.responses';

/** The record's warnings (`r.messages`) go to the envelope: the controller passes them to `ok`. */
export function renderSkuRecord(r: SkuRecord): ResponseBody<SkuRecordResponse> {
  const v: ResponseBody<SkuRecordResponse> = {
    id: r.id.skuId,
    namespace: r.id.namespace,
    vendor: r.id.vendor,
    role: r.id.role,
    vendor_sku: r.id.vendorSku,
    title: r.title,
    barcodes: r.barcodes.map((value) => ({ type: barcodeType(value), value })),
    aliases: renderAliases(r.aliases),
    purchasable_from: r.purchasableFrom.map((p) => ({ ...renderSupplyVariant(p.namespace, p.product), via: p.via })),
  };
  if (r.slots) v.slots = r.slots.map((s) => ({ slot_id: s.id, location: s.locationId, stock: s.stock, price: cny(s.priceFen), locked: s.priceLocked }));
  return v;
}

/** Aliases as UCP shows them: `confirmed_at` at +08:00 (a SKU record, a catalog lookup's variants). */
export function renderAliases(aliases: readonly Alias[]): AliasView[] {
  return aliases.map((a) => ({ sku_id: a.skuId, source: a.source, confirmed_at: a.confirmedAt === null ? null : toPlus8(a.confirmedAt) }));
}

function barcodeType(v: string): string {
  if (/^\d{13}$/.test(v)) return 'ean13';
  if (/^\d{8}$/.test(v)) return 'ean8';
  if (/^\d{12}$/.test(v)) return 'upca';
  if (/^\d{14}$/.test(v)) return 'gtin14';
  return 'other';
}
