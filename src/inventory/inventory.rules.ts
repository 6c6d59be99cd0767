/**
 * Machine inventory: barcode types, refused records and the synced slot rows (docs/contract/); the live
 * read is rendered by live-inventory.view.ts.
 * Pure: no Nest or TypeORM import.
 */

export interface InventoryItemInput {
  vendorSku: string;
  title: string;
  priceFen: number;
  stock: number;
  barcode: string | null;
  slotId: string | null;
  capacity: number | null;
}

export interface RefusedInput {
  index: number;
  id?: string;
  reason: string;
}

/** EAN-8/EAN-13 digits are typed `ean`; other codes are kept with type `other`. */
export function barcodeType(code: string): string {
  return /^\d{8}$|^\d{13}$/.test(code) ? 'ean' : 'other';
}

/** The text of a warning naming a refused inventory record. */
export function refusedItemText(locationId: string, r: RefusedInput): string {
  const name = r.id !== undefined ? `item ${r.id}` : `item #${r.index + 1}`;
  return `machine ${locationId}: ${name} refused: ${r.reason}`;
}

export interface SlotRowOut {
  id: string;
  location_id: string;
  namespace: string;
  vendor_sku: string;
  sku_id: string;
  title: string;
  barcode: string | null;
  price_fen: number;
  stock: number;
  capacity: number | null;
  partner_slot_id: string | null;
}

/**
 * The slot rows of one machine's inventory read. Slot id `<location>-<vendor_sku>`; the partner's `slotId` is kept
 * as a label. A vendorSku listed twice keeps its first entry (and is reported). `keepIds` are slots a refused record
 * may still stand for: they are not removed. `canRemove` is false when a refused record cannot be named, because
 * then no absent slot can be told apart from the refused one.
 */
export function toSlotRows(
  locationId: string,
  namespace: string,
  items: readonly InventoryItemInput[],
  refused: readonly RefusedInput[],
): { rows: SlotRowOut[]; duplicates: string[]; keepIds: string[]; canRemove: boolean } {
  const seen = new Set<string>();
  const rows: SlotRowOut[] = [];
  const duplicates: string[] = [];
  for (const i of items) {
    if (seen.has(i.vendorSku)) {
      duplicates.push(i.vendorSku);
      continue;
    }
    seen.add(i.vendorSku);
    rows.push({
      id: `${locationId}-${i.vendorSku}`,
      location_id: locationId,
      namespace,
      vendor_sku: i.vendorSku,
      sku_id: `${namespace}:${i.vendorSku}`,
      title: i.title,
      barcode: i.barcode,
      price_fen: i.priceFen,
      stock: i.stock,
      capacity: i.capacity,
      partner_slot_id: i.slotId,
    });
  }
  const keepIds = refused.filter((r) => r.id !== undefined).map((r) => `${locationId}-${r.id}`);
  return { rows, duplicates, keepIds, canRemove: refused.every((r) => r.id !== undefined) };
}
