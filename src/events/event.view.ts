import { toPlus8 } from '../common/time';
import { EventEntity } from './event.entity';

export interface EventView {
  id: string;
  occurred_at: string;
  kind: string;
  summary: string;
  reasoning: string;
  location?: string;
  data?: Record<string, unknown>;
}

export function toEventView(e: EventEntity): EventView {
  const v: EventView = {
    id: e.id,
    occurred_at: toPlus8(e.occurredAt),
    kind: e.kind,
    summary: e.summary,
    reasoning: e.reasoning,
  };
  if (e.location) v.location = e.location;
  if (e.data) v.data = e.data;
  return v;
}
