/**
 * Resolution of a slot's machine good to what can be bought (pure; docs/replenishment-policy.md section 4).
 *
 * The candidates are the SKU registry's `purchasable_from[]` of the machine sku: the supply ids reached through a
 * `manual`, `barcode` or `vendor` alias (never a `suggested` one), carried today and priced. One is chosen:
 *   1. the default supply namespace, when it carries the good;
 *   2. otherwise the lowest each price; ties: the stronger alias (manual > barcode > vendor), then the id.
 */
import type { AliasSource } from '../../skus/alias.rules';

export interface SupplyOffer {
  /** The supply sku id, e.g. `acme-supply:COLA`. */
  sku_id: string;
  namespace: string;
  vendor_sku: string;
  /** How the machine good reaches it: the alias source. */
  via: AliasSource;
  title: string;
  packSize: number;
  packPriceFen: number;
  eachPriceFen: number;
}

export type ChoiceReason = 'default_supplier' | 'lowest_each_price';

export interface Resolution {
  offer: SupplyOffer;
  reason: ChoiceReason;
  /** Every offer considered, cheapest each price first (the provenance of the choice). */
  candidates: SupplyOffer[];
}

const VIA_RANK: Record<string, number> = { manual: 0, barcode: 1, vendor: 2 };

function byPrice(a: SupplyOffer, b: SupplyOffer): number {
  return (
    a.eachPriceFen - b.eachPriceFen ||
    (VIA_RANK[a.via] ?? 9) - (VIA_RANK[b.via] ?? 9) ||
    (a.sku_id < b.sku_id ? -1 : a.sku_id > b.sku_id ? 1 : 0)
  );
}

/** An offer that may be ordered: not through a suggested alias, both prices above 0, whole pack size. */
export function orderable(o: SupplyOffer): boolean {
  return o.via !== 'suggested' && o.eachPriceFen > 0 && o.packPriceFen > 0 && Number.isSafeInteger(o.packSize) && o.packSize >= 1;
}

/** The supplier a slot's good is bought from, or null when nobody sells it. */
export function chooseSupplier(offers: readonly SupplyOffer[], defaultSupply: string | null | undefined): Resolution | null {
  const candidates = offers.filter(orderable).sort(byPrice);
  if (candidates.length === 0) return null;
  const preferred = defaultSupply ? candidates.find((o) => o.namespace === defaultSupply) : undefined;
  if (preferred) return { offer: preferred, reason: 'default_supplier', candidates };
  return { offer: candidates[0], reason: 'lowest_each_price', candidates };
}
