import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { RestockRecovered } from './restock-claim.rules';

/**
 * A restock request sent to a machine platform. (namespace, reference) is unique: the same reference never
 * creates a second request at the platform. Binding orders are followed until completed; `sent_at` to
 * `completed_at` is a measured lead time of that platform.
 */
@Entity('restock_orders')
@Index('uq_restock_orders_ref', ['namespace', 'reference'], { unique: true })
@Index('idx_restock_orders_open', ['binding', 'status'])
@Index('idx_restock_orders_completed', ['namespace', 'completedAt'])
@Index('idx_restock_orders_claims', ['status', 'claimedAt'])
export class RestockOrderEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  namespace: string;

  @Column('text')
  reference: string;

  @Column('text', { name: 'location_id' })
  locationId: string;

  @Column('boolean')
  binding: boolean;

  @Column('jsonb')
  lines: { vendorSku: string; quantity: number; reason?: string }[];

  @Column('text')
  fingerprint: string;

  @Column('text')
  status: string;

  @Column('integer', { nullable: true })
  accepted: number | null;

  @Column('text', { name: 'external_ref', nullable: true })
  externalRef: string | null;

  @Column('jsonb', { nullable: true })
  delivered: { vendorSku: string; quantity: number }[] | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'sent_at', nullable: true })
  sentAt: Date | null;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;

  @Column('timestamptz', { name: 'checked_at', nullable: true })
  checkedAt: Date | null;

  /**
   * When the current send claimed the request (database clock, ms), set with `sending`. Past the lease (the
   * money-claims core) its sender died before recording the answer; null while `sending`: the call ended without a
   * usable answer. Either way the platform's GET /restock/{ref} is read before anything is sent again.
   */
  @Column('timestamptz', { name: 'claimed_at', nullable: true })
  claimedAt: Date | null;

  /** How the answer was obtained when not from the POST: `read` (GET /restock/{ref}) or `unconfirmed`. */
  @Column('text', { nullable: true })
  recovered: RestockRecovered | null;
}
