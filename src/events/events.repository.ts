import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { readRowsTextTimes } from '../database/raw-read';
import { StaleReads } from '../database/replicas/stale-reads';
import { EventEntity } from './event.entity';
import { Tx } from '../database/tx';
import { EventSource, ServiceEventKind } from './event-kinds';

/** An event the service records itself (`EventsService.record`): its kind is one of the closed list. */
export interface NewEvent {
  kind: ServiceEventKind;
  summary: string;
  reasoning: string;
  location?: string | null;
  data?: Record<string, unknown> | null;
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

/** A row to insert: a service event, or a client's posted one (any kind), with who wrote it. */
export interface EventInsert extends Omit<NewEvent, 'kind'> {
  kind: string;
  source: EventSource;
}

@Injectable()
export class EventsRepository {
  constructor(
    @InjectRepository(EventEntity) private readonly repo: Repository<EventEntity>,
    private readonly tx: Tx,
    private readonly stale: StaleReads,
  ) {}

  /** Inserts inside the current transaction (Tx), so the event commits or rolls back with the change it records. */
  async insert(e: EventInsert): Promise<EventEntity> {
    const r = this.tx.manager.getRepository(EventEntity);
    const rows = (await r
      .createQueryBuilder()
      .insert()
      .values({ kind: e.kind, source: e.source, summary: e.summary, reasoning: e.reasoning, location: e.location ?? null, data: (e.data ?? null) as never })
      .returning('*')
      .execute()) as { raw: Record<string, unknown>[] };
    return r.create(this.fromRaw(rows.raw[0]));
  }

  /**
   * Newest first, as rows with driver-text timestamps (no entity per row on this hot read). `stale`: a replica may
   * answer (issue 38); a page the cache keeps for every client is read on the primary.
   */
  list(q: { limit: number; location?: string; kind?: string }, opts: { stale?: boolean } = {}): Promise<EventRow[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (q.location !== undefined) where.push(`location = $${params.push(q.location)}`);
    if (q.kind !== undefined) where.push(`kind = $${params.push(q.kind)}`);
    const sql =
      'SELECT id, occurred_at, kind, source, summary, reasoning, location, data FROM events' +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
      ` ORDER BY seq DESC LIMIT $${params.push(q.limit)}`;
    if (opts.stale) return this.stale.rows<EventRow>(sql, params, { textTimes: true });
    return readRowsTextTimes<EventRow>(this.repo.manager.connection, sql, params);
  }

  findById(id: string): Promise<EventEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /** Events stored after `seq`, oldest first (the fan-out feed of the PostgreSQL event bus). */
  listAfterSeq(seq: string, limit: number): Promise<EventEntity[]> {
    return this.repo.createQueryBuilder('e').where('e.seq > :seq', { seq }).orderBy('e.seq', 'ASC').limit(limit).getMany();
  }

  async maxSeq(): Promise<string> {
    const row = (await this.repo.createQueryBuilder('e').select('COALESCE(MAX(e.seq), 0)', 'max').getRawOne()) as { max: string | number } | undefined;
    return String(row?.max ?? '0');
  }

  private fromRaw(raw: Record<string, unknown>): Partial<EventEntity> {
    return {
      id: raw.id as string,
      seq: String(raw.seq),
      occurredAt: new Date(raw.occurred_at as string | Date),
      kind: raw.kind as string,
      source: raw.source as EventSource,
      summary: raw.summary as string,
      reasoning: raw.reasoning as string,
      location: (raw.location as string | null) ?? null,
      data: (raw.data as Record<string, unknown> | null) ?? null,
    };
  }
}
