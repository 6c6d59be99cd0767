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

/** An event row as the list query returns it (occurred_at as driver text, or a Date from another driver). */
export interface EventRow {
  id: string;
  occurred_at: string | Date;
  kind: string;
  summary: string;
  reasoning: string;
  location: string | null;
  data: Record<string, unknown> | null;
}

/** The same bytes as `JSON.stringify(toEventView(...))`, rendered from the row without a view object (issue 13). */
export function eventJson(e: EventRow, toTime: (t: string | Date) => string): string {
  let out = `{"id":${JSON.stringify(e.id)},"occurred_at":"${toTime(e.occurred_at)}","kind":${JSON.stringify(e.kind)},"summary":${JSON.stringify(e.summary)},"reasoning":${JSON.stringify(e.reasoning)}`;
  if (e.location) out += `,"location":${JSON.stringify(e.location)}`;
  if (e.data) out += `,"data":${JSON.stringify(e.data)}`;
  return `${out}}`;
}
