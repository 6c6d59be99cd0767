/** Response models of the event log (OpenAPI only; see common/envelope.responses.ts). */
import { DateTime, FreeObject } from '../common/api-docs';
import { UcpEnvelope, UcpHeaderView, UcpMessageView } from '../common/envelope.responses';

/** One record of the audit line: decisions, sales and errors. */
export class EventView {
  /** Assigned by the service. */
  id: string;
  @DateTime({ description: 'Assigned by the service.' })
  occurred_at: string;
  /** e.g. `checkout.completed`, `price.changed`, `approval.requested`, `kill_switch`; a posted event's kind is free. */
  kind: string;
  summary: string;
  reasoning: string;
  location?: string;
  @FreeObject({ required: false, description: 'Structured details recorded by the service itself (ids, amounts); never tokens.' })
  data?: Record<string, unknown>;
}

export class EventsListResponse extends UcpEnvelope {
  /** Newest first. */
  events: EventView[];
}

export class EventCreatedResponse extends EventView {
  ucp: UcpHeaderView;
  messages: UcpMessageView[];
}
