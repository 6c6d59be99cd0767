/** Response models of the price audit (OpenAPI only). */
import { DateTime } from '../../common/envelope/api-docs';
import { PriceView, UcpEnvelope } from '../../common/envelope/envelope.responses';

export class PriceAuditItemView {
  id: string;
}

export class PriceAuditFlagView {
  slot_id: string;
  /** The machine. */
  location: string;
  item: PriceAuditItemView;
  /** Product name. */
  title: string;
  /** The price the machine sells at (last inventory sync). */
  machine_price: PriceView;
  /** The last price the service set or approved. */
  service_price: PriceView;
  @DateTime()
  flagged_at: string;
}

export class PriceAuditResponse extends UcpEnvelope {
  /** Slots whose machine price differs from the service's, newest first (at most 500). */
  flags: PriceAuditFlagView[];
}
