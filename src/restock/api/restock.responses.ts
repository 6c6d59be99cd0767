/** Response models of restock requests (OpenAPI only; see common/envelope.responses.ts). */
import { Int } from '../../common/envelope/api-docs';
import { UcpEnvelope } from '../../common/envelope/envelope.responses';

export class RestockResponse extends UcpEnvelope {
  location: string;
  /** Your idempotent reference: the same reference with the same body replays this answer. */
  reference: string;
  /** false: a recommendation; true: an order the platform executes and reports on. */
  binding: boolean;
  @Int({ minimum: 0, description: "Lines the platform accepted; after a recovered send (`restock_recovered`) the request's line count, 0 when unconfirmed (`restock_unconfirmed`)." })
  accepted: number;
  /** Binding requests: the platform's own order number. */
  external_ref?: string;
}
