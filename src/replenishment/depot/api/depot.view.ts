/** The UCP JSON of the depot (GET /depot and the answers of fill and count), rendered once at the edge (pure). */
import type { ResponseBody } from '../../../common/envelope/envelope.responses';
import { toPlus8 } from '../../../common/time';
import type { DepotCount, DepotFill, DepotPage } from '../depot.service';
import type { DepotCountResponse, DepotFillResponse, DepotResponse } from './depot.responses';

/** A page of the depot's stock, with the cursor of the following page (none on the last). */
export function renderDepot(p: DepotPage): ResponseBody<DepotResponse> {
  return {
    depot: { id: p.depot.id, name: p.depot.name },
    stock: p.stock.map((s) => ({ item: { id: s.skuId }, title: s.title, quantity: s.quantity, updated_at: toPlus8(s.updatedAt) })),
    totals: p.totals,
    pagination: p.next !== null ? { has_next_page: true, cursor: p.next } : { has_next_page: false },
  };
}

/** A fill's answer: the depot's first page, then the units moved into each slot. */
export function renderDepotFill(p: DepotPage & { filled: DepotFill[] }): ResponseBody<DepotFillResponse> {
  return {
    ...renderDepot(p),
    filled: p.filled.map((f) => ({ slot_id: f.slot_id, item: { id: f.item.id }, quantity: f.quantity, stock_before: f.stock_before, stock_after: f.stock_after })),
  };
}

/** A count's answer: the depot's first page, then what each counted good held before and holds now. */
export function renderDepotCount(p: DepotPage & { counted: DepotCount[] }): ResponseBody<DepotCountResponse> {
  return {
    ...renderDepot(p),
    counted: p.counted.map((c) => ({ item: { id: c.item.id }, before: c.before, after: c.after, delta: c.delta })),
  };
}
