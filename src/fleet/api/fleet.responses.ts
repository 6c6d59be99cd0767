/** Response models of the fleet overview (OpenAPI only). */
import { DateTime, Int } from '../../common/envelope/api-docs';
import { PriceView, UcpEnvelope } from '../../common/envelope/envelope.responses';

export class FleetSalesView {
  @Int({ minimum: 0, description: 'Settled sale orders.' })
  orders: number;
  total: PriceView;
}

export class FleetMachineView {
  /** The location (machine) id. */
  id: string;
  name: string;
  namespace: string;
  @Int({ minimum: 0, description: 'Slots in the synced copy.' })
  slots: number;
  @Int({ minimum: 0, description: 'Slots whose synced stock is 0.' })
  sold_out_slots: number;
  @Int({ minimum: 0 })
  stock: number;
  @Int({ minimum: 0, description: 'Summed over the slots whose capacity the platform gives.' })
  capacity: number;
  /** Stock over capacity in percent over the slots with a known capacity; null when no capacity is known. */
  fill_percent: number | null;
  /** The newest inventory sync of this machine's slots; null when never synced. */
  @DateTime({ nullable: true })
  last_synced_at: string | null;
  /** Settled sales since 00:00 today (+08:00). */
  sales_today: FleetSalesView;
  /** Settled sales over the 7 calendar days ending today (+08:00). */
  sales_7d: FleetSalesView;
}

export class FleetTotalsView {
  /** Settled sales of every machine since 00:00 today (+08:00). */
  sales_today: FleetSalesView;
  /** Settled sales of every machine over the 7 calendar days ending today (+08:00). */
  sales_7d: FleetSalesView;
}

export class FleetResponse extends UcpEnvelope {
  /** The whole fleet's sales, summed by the service. */
  totals: FleetTotalsView;
  /** Every registered machine, by id. */
  machines: FleetMachineView[];
  @DateTime()
  read_at: string;
}
