/** Response models of catalog search and lookup (OpenAPI only; see common/envelope.responses.ts). */
import { Int, DateTime, Const } from '../common/api-docs';
import { PaginationView, PriceView, UcpEnvelope } from '../common/envelope.responses';

export class SaleUnitView {
  /** UN/ECE Rec 20: `EA` each, `BX` box. */
  unit: 'EA' | 'BX';
  display_text: string;
  @Int({ minimum: 1, description: 'Number of EA in one box (BX only).' })
  contains?: number;
  @Int({ minimum: 1, description: 'Quantities of this unit are ordered in multiples of it.' })
  increment: number;
  price: PriceView;
  /** True when the supplier quotes only the box and the each price is box price / contains. */
  price_derived: boolean;
}

export class AvailabilityView {
  available: boolean;
  @Int({ minimum: 0 })
  stock: number;
}

export class VariantInventoryView {
  @Int({ minimum: 0 })
  stock: number;
  /** `<location>-<vendor_sku>`. */
  slot_id: string;
  /** True while a price change for this slot awaits approval. */
  locked: boolean;
}

export class AliasView {
  sku_id: string;
  /** `barcode`, `manual` and `vendor` may be used to order; `suggested` may not. */
  source: 'barcode' | 'manual' | 'vendor' | 'suggested';
  @DateTime({ nullable: true, description: 'Null for implied (`vendor`) and `suggested` aliases.' })
  confirmed_at: string | null;
}

export class LookupInputView {
  /** The requested id this variant answers. */
  id: string;
  @Const('exact')
  match: 'exact';
}

/** UCP's description of a product or variant: the partner contracts carry none, so `plain` is the title. */
export class DescriptionView {
  plain: string;
}

/**
 * A catalog variant. Supply namespaces carry `sale_units` and `availability`; machine namespaces carry `inventory`
 * and `location`. Lookup adds `aliases` and `inputs`. Cost and margin never appear.
 */
export class VariantView {
  /** sku_id, `<vendor>-<role>:<vendor_sku>`. */
  id: string;
  title: string;
  description: DescriptionView;
  /** Barcode (EAN); absent when unknown (UCP: a string when present). */
  sku?: string;
  /** Always the each (single unit) price. */
  price: PriceView;
  @Const('EA')
  quantity_unit: 'EA';
  sale_units?: SaleUnitView[];
  availability?: AvailabilityView;
  inventory?: VariantInventoryView;
  /** Machine variants: the location whose slot this is. */
  location?: string;
  aliases?: AliasView[];
  inputs?: LookupInputView[];
}

export class PriceRangeView {
  min: PriceView;
  max: PriceView;
}

/**
 * A catalog product (UCP layout): one good, named by its sku_id. A supplier product has one variant; a machine good
 * looked up across machines has one variant per slot that holds it. `description` is the title: the partner contract
 * carries none (UCP requires one).
 */
export class ProductView {
  /** The sku_id of the good, the same as its variants' `id`. */
  id: string;
  title: string;
  description: DescriptionView;
  /** The lowest and highest each price of its variants. */
  price_range: PriceRangeView;
  variants: VariantView[];
}

export class CatalogSearchResponse extends UcpEnvelope {
  /** One product per matching good, each with its variant; paginated by product. */
  products: ProductView[];
  pagination: PaginationView;
}

export class CatalogLookupResponse extends UcpEnvelope {
  /** One product per requested id that was found, in the order asked; each variant says which input it answers (`inputs`). */
  products: ProductView[];
}
