/** Response models of the service clock (issue 25; not in the public OpenAPI document: the controller is excluded). */
import { DateTime, Int } from '../../common/envelope/api-docs';

export class ClockView {
  /** The service's now (+08:00). */
  @DateTime()
  now: string;
  /** true on a staging service started with SERVICE_CLOCK=adjustable. */
  adjustable: boolean;
  @Int({ minimum: 0, description: 'How far the clock was moved forward, whole seconds.' })
  offset_seconds: number;
}
