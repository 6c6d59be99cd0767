import { Injectable } from '@nestjs/common';
import { SupplyCatalogService } from '../supply-catalog/supply-catalog.service';
import { Errors } from '../common/errors/errors';
import { parseSkuId } from '../identifiers/identifiers';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { mergeLineChanges } from './checkout-lines.rules';
import { StoredLine } from './checkout-session.entity';
import type { CheckoutLineInput } from './checkout-session.input';
import type { PackUnit } from '../partners/adapter.types';

export type RequestedLine = { item_id: string; quantity: number; unit: PackUnit };

/** The lines of a checkout session: merged with a request's changes, in one supply namespace, priced from the supplier catalog. */
@Injectable()
export class CheckoutPricingService {
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly catalog: SupplyCatalogService,
  ) {}

  /** Adds or changes lines (matched by item id and unit); quantity 0 removes (checkout-lines.rules.ts). */
  mergeLines(current: StoredLine[], changes: CheckoutLineInput[]): RequestedLine[] {
    changes.forEach((c, i) => {
      const parsed = parseSkuId(c.item.id);
      if (!parsed) throw Errors.invalid(`$.line_items[${i}].item.id`, `${c.item.id} is not a sku id <vendor>-supply:<vendor_sku>`);
      if (parsed.role !== 'supply') {
        throw Errors.namespaceMismatch(`$.line_items[${i}].item.id`, `${c.item.id} is a machine id; checkout takes supply ids only`);
      }
    });
    const merged = mergeLineChanges(
      current.map((l) => ({ item_id: l.item_id, quantity: l.quantity, unit: l.unit })),
      changes.map((c) => ({ itemId: c.item.id, quantity: c.quantity, unit: c.quantity_unit?.unit ?? null })),
      'EA',
    );
    if (!merged.ok) throw Errors.invalid(`$.line_items[${merged.index}].quantity`, merged.text);
    return merged.lines;
  }

  namespaceOf(lines: { item_id: string }[], current: string | null): string {
    const spaces = [...new Set(lines.map((l) => parseSkuId(l.item_id)!.namespace))];
    if (spaces.length > 1) {
      throw Errors.namespaceMismatch('$.line_items', `one session holds one supply namespace; got ${spaces.join(', ')}`);
    }
    const ns = spaces[0] ?? current ?? this.registry.defaults().supply;
    if (!ns) throw Errors.namespaceUnsupported('(none)', 'no supply namespace is registered', '$.line_items');
    this.registry.usable(ns, 'supply', undefined, '$.line_items');
    return ns;
  }

  /** Prices each line from the supplier catalog (a catalog outage is 502, never an empty session). */
  async priceLines(namespace: string, lines: RequestedLine[]): Promise<StoredLine[]> {
    if (!lines.length) return [];
    const snap = await this.catalog.snapshot(namespace);
    return lines.map((l, i) => {
      const vendorSku = parseSkuId(l.item_id)!.vendorSku;
      const product = snap.bySku.get(vendorSku);
      const base: StoredLine = { id: `li_${i + 1}`, item_id: l.item_id, quantity: l.quantity, unit: l.unit, title: null, unit_price_fen: null, contains: null, increment: null, problem: null };
      if (!product) return { ...base, problem: 'the supplier does not carry this item' };
      const unit = this.catalog.saleUnit(product, l.unit);
      if (!unit) return { ...base, title: product.title, problem: `not sold in unit ${l.unit}` };
      return {
        ...base,
        title: product.title,
        unit_price_fen: unit.price.amount,
        contains: unit.contains ?? null,
        increment: unit.increment,
        problem: product.stock <= 0 ? 'out of stock at the supplier' : null,
      };
    });
  }
}
