/** Response models of the SKU registry (OpenAPI only; see common/envelope.responses.ts). */
import { Int } from '../common/api-docs';
import { BarcodeView, PriceView, UcpEnvelope } from '../common/envelope.responses';
import { AliasView, VariantView } from '../catalog/catalog.responses';

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
