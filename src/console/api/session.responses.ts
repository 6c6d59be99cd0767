/** Response models of the console sign-in routes (OpenAPI only). */
import { UcpEnvelope } from '../../common/envelope/envelope.responses';

export class SessionResponse extends UcpEnvelope {
  /** True after sign-in (the answer sets the auth cookie), false after sign-out (the answer clears it). */
  signed_in: boolean;
}
