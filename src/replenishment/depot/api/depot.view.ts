/** The UCP JSON of the depot (GET /depot and the answers of fill and count), rendered once (pure). */
import { toPlus8 } from '../../../common/time';
import type { DepotEntity } from '../depot.entity';
import type { DepotStockRow } from '../depot.repository';

export interface DepotView {
  depot: { id: string; name: string };
  stock: { item: { id: string }; title: string | null; quantity: number; updated_at: string }[];
  /** The whole depot, whatever the page. */
  totals: { goods: number; units: number };
  pagination: { has_next_page: boolean; cursor?: string };
}

/** A page of the depot's stock; `next` is the cursor of the following page (null on the last). */
export function renderDepot(depot: DepotEntity, page: { stock: DepotStockRow[]; next: string | null; totals: { goods: number; units: number } }): DepotView {
  return {
    depot: { id: depot.id, name: depot.name },
    stock: page.stock.map((s) => ({ item: { id: s.skuId }, title: s.title, quantity: s.quantity, updated_at: toPlus8(s.updatedAt) })),
    totals: page.totals,
    pagination: page.next !== null ? { has_next_page: true, cursor: page.next } : { has_next_page: false },
  };
}
