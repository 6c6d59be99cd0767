/** Response models of a machine's live inventory (OpenAPI only; see common/envelope.responses.ts). */
import { DateTime, Int } from '../../common/envelope/api-docs';
import { BarcodeView, PriceView, UcpEnvelope } from '../../common/envelope/envelope.responses';

export class MachineStockItemView {
  sku_id: string;
  vendor_sku: string;
  title: string;
  barcodes?: BarcodeView[];
  /** Current customer-facing price. */
  price: PriceView;
  @Int({ minimum: 0, description: 'Units left; 0 is allowed.' })
  stock: number;
}

export class LiveInventoryResponse extends UcpEnvelope {
  location_id: string;
  @DateTime({ description: 'When the platform was read (live, never cached).' })
  read_at: string;
  items: MachineStockItemView[];
}
