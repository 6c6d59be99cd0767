import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { EventBus } from './event-bus';
import type { EventEntity } from './event.entity';
import { EventInsert, EventRow, EventsRepository, NewEvent } from './events.repository';
import { Tx } from '../database/tx';
import { currentRequester } from '../common/auth/requester.context';
import { EventPagesCache } from './event-pages.cache';

/** The cache of list pages (null when SERVICE_EVENT_PAGE_CACHE=off); the view renders a cached page once. */
export const EVENT_PAGES = Symbol('EVENT_PAGES');

/** An event a client posts (`POST /events`): any kind, no structured data, always marked `source: "client"`. */
export interface ClientEvent {
  kind: string;
  summary: string;
  reasoning: string;
  location?: string;
}

export const EVENTS_DEFAULT_LIMIT = 50;

@Injectable()
export class EventsService {
  private readonly logger = new Logger(EventsService.name);
  constructor(
    private readonly repo: EventsRepository,
    private readonly bus: EventBus,
    private readonly tx: Tx,
    @Optional() @Inject(EVENT_PAGES) private readonly pages: EventPagesCache<EventRow[]> | null = null,
  ) {}

  /**
   * Newest first, as list rows (issue 13); the same page is reused until an event commits (issue 21). Without the
   * page cache a replica may answer (issue 38); a cached page serves every client, so it is filled from the primary
   * (a page from a replica behind one client's write would be served to that client until the next commit).
   */
  list(q: { limit?: number; location?: string; kind?: string }): Promise<EventRow[]> {
    const filter = { limit: q.limit ?? EVENTS_DEFAULT_LIMIT, location: q.location, kind: q.kind };
    if (!this.pages) return this.repo.list(filter, { stale: true });
    return this.pages.page(JSON.stringify([filter.limit, filter.location ?? null, filter.kind ?? null]), () => this.repo.list(filter));
  }

  /**
   * Appends an event in the current transaction (Tx) and publishes it once that transaction commits (never if it
   * rolls back; at once outside a transaction).
   */
  record(e: NewEvent): Promise<EventEntity> {
    return this.store({ ...e, source: 'service' });
  }

  /** A client's event: stored and published like the service's own, marked `source: "client"` so it never passes for one. */
  recordClient(e: ClientEvent): Promise<EventEntity> {
    return this.store({ kind: e.kind, summary: e.summary, reasoning: e.reasoning, location: e.location ?? null, data: null, source: 'client' });
  }

  /** Stores the event; once committed it is published as stored (the edge renders it), and the caller gets it. */
  private async store(e: EventInsert): Promise<EventEntity> {
    // What an agent connected through OAuth does is attributed to its client (issue 36), in the event's data.
    const clientId = currentRequester().client_id;
    const stored = await this.repo.insert(clientId ? { ...e, data: { ...(e.data ?? {}), agent_client_id: clientId } } : e);
    await this.tx.afterCommit(() => this.publish(stored));
    return stored;
  }

  async publish(event: EventEntity): Promise<void> {
    try {
      await this.bus.publish(event);
    } catch (err) {
      // The event is stored; a failed fan-out must not fail the request that produced it.
      this.logger.warn(`event ${event.id} stored but not fanned out: ${(err as Error).message}`);
    }
  }
}
