/**
 * The UCP JSON of events, rendered at the edge (declared type: the response class). The list answer and the fan-out
 * (sockets, other instances) carry the same rendered event.
 */
import { JsonText } from '../../common/envelope/rendered-json';
import { pgTimeToPlus8, toPlus8 } from '../../common/time';
import { EventEntity } from '../event.entity';
import type { EventRow } from '../events.repository';
import type { EventView } from './events.responses';

export type { EventView } from './events.responses';

export function renderEvent(e: EventEntity): EventView {
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

/**
 * A list row (issue 13): timestamps rendered from the driver's text, no entity in between. The page is then one
 * `JSON.stringify` of these plain objects, which measured faster than concatenating per-field JSON text.
 */
export function renderEventRow(e: EventRow, toTime: (t: string | Date) => string): EventView {
  const v: EventView = { id: e.id, occurred_at: toTime(e.occurred_at), kind: e.kind, source: e.source, summary: e.summary, reasoning: e.reasoning };
  if (e.location) v.location = e.location;
  if (e.data) v.data = e.data;
  return v;
}

/** Pages already rendered: a cached page (the same rows) is rendered once, however often it answers (issue 21). */
const renderedPages = new WeakMap<readonly EventRow[], JsonText<EventView[]>>();

/** A `GET /events` page, rendered straight to JSON text (the `events` array of EventsListResponse). */
export function renderEventPage(rows: readonly EventRow[]): JsonText<EventView[]> {
  let page = renderedPages.get(rows);
  if (!page) {
    const views = new Array<EventView>(rows.length);
    for (let i = 0; i < rows.length; i++) views[i] = renderEventRow(rows[i], pgTimeToPlus8);
    page = new JsonText<EventView[]>(JSON.stringify(views));
    renderedPages.set(rows, page);
  }
  return page;
}
