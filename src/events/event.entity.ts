import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { EventSource } from './event-kinds';

/** One audit record. `seq` gives a total order (newest first = seq desc) that survives equal timestamps. */
@Entity('events')
@Index('idx_events_kind_seq', ['kind', 'seq'])
@Index('idx_events_location_seq', ['location', 'seq'])
export class EventEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('bigint', { generated: 'increment', unique: true })
  seq: string;

  @Column('timestamptz', { name: 'occurred_at', default: () => 'now()' })
  occurredAt: Date;

  @Column('text')
  kind: string;

  /** `service`: recorded by the service itself; `client`: posted through `POST /events` (free kind, never trusted). */
  @Column('text')
  source: EventSource;

  @Column('text')
  summary: string;

  @Column('text')
  reasoning: string;

  @Column('text', { nullable: true })
  location: string | null;

  /** Structured details recorded by the service itself (ids, amounts); never tokens. */
  @Column('jsonb', { nullable: true })
  data: Record<string, unknown> | null;
}
