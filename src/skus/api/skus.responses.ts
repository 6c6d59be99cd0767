/** Response models of the SKU registry (OpenAPI only; see common/envelope.responses.ts). */
import { Const, DateTime, Int } from '../../common/envelope/api-docs';
import { BarcodeView, PriceView, UcpEnvelope } from '../../common/envelope/envelope.responses';
import { AvailabilityView, DescriptionView, SaleUnitView, VariantInventoryView } from '../../supply-catalog/api/variant.responses';

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

export class PurchasableVariantView extends VariantView {
  /** How the supplier good was reached: `self`, or the alias source that links it. */
  via: 'self' | 'barcode' | 'manual' | 'vendor';
}

export class SkuSlotView {
  slot_id: string;
  location: string;
  @Int({ minimum: 0 })
  stock: number;
  price: PriceView;
  locked: boolean;
}

/** A SKU record: identity, barcodes, aliases (symmetric) and what the suppliers carry today. */
export class SkuRecordResponse extends UcpEnvelope {
  id: string;
  namespace: string;
  vendor: string;
  role: 'supply' | 'machine';
  vendor_sku: string;
  title: string | null;
  barcodes: BarcodeView[];
  aliases: AliasView[];
  /** Only goods the supplier carries today and can price; a dropped mapping stays in `aliases` with an `unresolved_sku` warning. */
  purchasable_from: PurchasableVariantView[];
  /** Machine SKUs: the slots holding it (filtered by `location` when given). */
  slots?: SkuSlotView[];
}
