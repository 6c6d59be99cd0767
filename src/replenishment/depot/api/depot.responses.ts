/** Response models of the depot (OpenAPI only; see common/envelope.responses.ts). */
import { DateTime, Int } from '../../../common/envelope/api-docs';
import { ItemRefView, PaginationView, UcpEnvelope } from '../../../common/envelope/envelope.responses';

export class DepotRefView {
  id: string;
  name: string;
}

export class DepotStockView {
  item: ItemRefView;
  /** From a slot that sells the good; null when no slot does. */
  title: string | null;
  @Int({ minimum: 1 })
  quantity: number;
  @DateTime()
  updated_at: string;
}

export class DepotTotalsView {
  @Int({ minimum: 0 })
  goods: number;
  @Int({ minimum: 0 })
  units: number;
}

export class DepotResponse extends UcpEnvelope {
  depot: DepotRefView;
  /** A page of the goods held (quantity above 0), by sku id (the first page in a fill's or count's answer). */
  stock: DepotStockView[];
  /** The whole depot, whatever the page. */
  totals: DepotTotalsView;
  pagination: PaginationView;
}

export class DepotFilledView {
  slot_id: string;
  item: ItemRefView;
  @Int({ minimum: 1 })
  quantity: number;
  @Int()
  stock_before: number;
  @Int()
  stock_after: number;
}

export class DepotFillResponse extends DepotResponse {
  filled: DepotFilledView[];
}

export class DepotCountedView {
  item: ItemRefView;
  @Int({ minimum: 0 })
  before: number;
  @Int({ minimum: 0 })
  after: number;
  @Int()
  delta: number;
}

export class DepotCountResponse extends DepotResponse {
  counted: DepotCountedView[];
}
