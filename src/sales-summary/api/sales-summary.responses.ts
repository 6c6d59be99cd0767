/** Response models of the daily sales (OpenAPI only). */
import { DateTime, Int } from '../../common/envelope/api-docs';
import { PriceView, UcpEnvelope } from '../../common/envelope/envelope.responses';

export class SalesTotalView {
  @Int({ minimum: 0, description: 'Settled sale orders.' })
  orders: number;
  total: PriceView;
}

export class SalesDayView {
  /** A +08:00 calendar day, YYYY-MM-DD. */
  day: string;
  @Int({ minimum: 0 })
  orders: number;
  total: PriceView;
}

export class SalesDailyResponse extends UcpEnvelope {
  @DateTime()
  read_at: string;
  /** Settled sales since 00:00 today (+08:00). */
  today: SalesTotalView;
  /** Settled sales over the 7 calendar days ending today (+08:00). */
  last_7_days: SalesTotalView;
  /** Every day of the range (none after today), 0 where nothing sold. */
  days: SalesDayView[];
  /** The range's total. */
  range_total: SalesTotalView;
}
