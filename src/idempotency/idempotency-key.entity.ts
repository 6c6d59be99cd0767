import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One Idempotency-Key (docs/contract/): claimed by INSERT ... ON CONFLICT DO NOTHING so it holds across
 * instances; `state` in_flight while the first request runs, done with the stored answer afterwards. An in_flight
 * claim older than the lease (a crashed process) may be taken over by the same request (same fingerprint).
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

  /** When the running request claimed the key (database clock); an in_flight claim past the lease may be taken over. */
  @Column('timestamptz', { name: 'claimed_at', default: () => 'now()' })
  claimedAt: Date;

  /** The current claim's random id: only that claim may store the outcome or release the key. */
  @Column('text', { name: 'claim_id', nullable: true })
  claimId: string | null;
}
