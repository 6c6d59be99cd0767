/** Response models of the event log (OpenAPI only; see common/envelope.responses.ts). */
import { ApiProperty } from '@nestjs/swagger';
import { DateTime, FreeObject } from '../../common/envelope/api-docs';
import { EVENT_SOURCES, SERVICE_EVENT_KINDS } from '../event-kinds';
import { UcpEnvelope, UcpHeaderView, UcpMessageView } from '../../common/envelope/envelope.responses';

/** One record of the audit line: decisions, sales and errors. */
export class EventView {
  /** Assigned by the service. */
  id: string;
  @DateTime({ description: 'Assigned by the service.' })
  occurred_at: string;
  @ApiProperty({
    description: `With \`source: "service"\`, one of: ${SERVICE_EVENT_KINDS.map((k) => `\`${k}\``).join(', ')}. A posted event's kind is free (\`source: "client"\`).`,
  })
  kind: string;
  @ApiProperty({
    enum: EVENT_SOURCES,
    description: '`service`: recorded by the service itself. `client`: posted through `POST /events` (whatever its kind, never the service\'s own record).',
  })
  source: 'service' | 'client';
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
