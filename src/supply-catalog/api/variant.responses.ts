/**
 * Response models of a catalog variant's parts (OpenAPI only; see common/envelope.responses.ts). The variant itself,
 * `VariantView`, is in skus/skus.responses.ts: it carries the SKU registry's aliases.
 */
import { Int } from '../../common/envelope/api-docs';
import { PriceView } from '../../common/envelope/envelope.responses';
import type { PackUnit } from '../../partners/adapter.types';

export class SaleUnitView {
  /** UN/ECE Rec 20: `EA` each, `BX` box. */
  unit: PackUnit;
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

/** UCP's description of a product or variant: the partner contracts carry none, so `plain` is the title. */
export class DescriptionView {
  plain: string;
}
