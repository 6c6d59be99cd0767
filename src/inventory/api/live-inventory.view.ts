/** The UCP JSON of a live inventory read (spec "Machine stock item"), rendered at the edge from what the platform answered. */
import { warning } from '../../common/envelope/envelope';
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import { cny } from '../../common/money';
import { toPlus8 } from '../../common/time';
import type { LiveInventoryResponse, MachineStockItemView } from './inventory.responses';
import { barcodeType, InventoryItemInput, refusedItemText } from '../inventory.rules';
import type { LiveInventory } from '../inventory.service';

export function renderStockItem(namespace: string, i: InventoryItemInput): MachineStockItemView {
  const v: MachineStockItemView = {
    sku_id: `${namespace}:${i.vendorSku}`,
    vendor_sku: i.vendorSku,
    title: i.title,
    price: cny(i.priceFen),
    stock: i.stock,
  };
  if (i.barcode) v.barcodes = [{ type: barcodeType(i.barcode), value: i.barcode }];
  return v;
}

/** The read, with one `partner_data_refused` warning per record the platform sent that was refused. */
export function renderLiveInventory(inv: LiveInventory): ResponseBody<LiveInventoryResponse> & Pick<LiveInventoryResponse, 'messages'> {
  return {
    location_id: inv.locationId,
    read_at: toPlus8(inv.readAt),
    items: inv.items.map((i) => renderStockItem(inv.namespace, i)),
    messages: inv.refused.map((r) => warning('partner_data_refused', refusedItemText(inv.locationId, r), '$.items')),
  };
}
