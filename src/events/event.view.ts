import { toPlus8 } from '../common/time';
import { EventEntity } from './event.entity';
import type { EventSource } from './event-kinds';

export interface EventView {
  id: string;
  occurred_at: string;
  kind: string;
  source: EventSource;
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
    source: e.source,
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
  source: EventSource;
  summary: string;
  reasoning: string;
  location: string | null;
  data: Record<string, unknown> | null;
}

/**
 * The view of a list row (issue 13): timestamps rendered from the driver's text, no entity in between. The page is
 * then one `JSON.stringify` of these plain objects, which measured faster than concatenating per-field JSON text.
 */
export function eventRowView(e: EventRow, toTime: (t: string | Date) => string): EventView {
  const v: EventView = { id: e.id, occurred_at: toTime(e.occurred_at), kind: e.kind, source: e.source, summary: e.summary, reasoning: e.reasoning };
  if (e.location) v.location = e.location;
  if (e.data) v.data = e.data;
  return v;
}
