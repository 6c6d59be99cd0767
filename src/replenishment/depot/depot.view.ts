/** The UCP JSON of the depot (GET /depot and the answers of fill and count), rendered once (pure). */
import { toPlus8 } from '../../common/time';
import type { DepotEntity } from './depot.entity';
import type { DepotStockRow } from './depot.repository';

export interface DepotView {
  depot: { id: string; name: string };
  stock: { item: { id: string }; title: string | null; quantity: number; updated_at: string }[];
  totals: { goods: number; units: number };
}

export function renderDepot(depot: DepotEntity, stock: DepotStockRow[]): DepotView {
  return {
    depot: { id: depot.id, name: depot.name },
    stock: stock.map((s) => ({ item: { id: s.skuId }, title: s.title, quantity: s.quantity, updated_at: toPlus8(s.updatedAt) })),
    totals: { goods: stock.length, units: stock.reduce((t, s) => t + s.quantity, 0) },
  };
}
