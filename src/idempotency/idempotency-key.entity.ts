import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One Idempotency-Key (decisions.md section 9): claimed by INSERT ... ON CONFLICT DO NOTHING so it holds across
 * instances; `state` in_flight while the first request runs, done with the stored answer afterwards.
 */
@Entity('idempotency_keys')
@Index('idx_idempotency_created', ['createdAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn('text')
  key: string;

  @Column('text')
  fingerprint: string;

  @Column('text')
  operation: string;

  @Column('text', { name: 'resource_id' })
  resourceId: string;

  @Column('text', { default: 'in_flight' })
  state: string;

  @Column('integer', { name: 'response_status', nullable: true })
  responseStatus: number | null;

  @Column('jsonb', { name: 'response_body', nullable: true })
  responseBody: unknown;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;
}
