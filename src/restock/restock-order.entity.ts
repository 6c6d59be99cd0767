import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A restock request sent to a machine platform. (namespace, reference) is unique: the same reference never
 * creates a second request at the platform. Binding orders are followed until completed; `sent_at` to
 * `completed_at` is a measured lead time of that platform.
 */
@Entity('restock_orders')
@Index('uq_restock_orders_ref', ['namespace', 'reference'], { unique: true })
@Index('idx_restock_orders_open', ['binding', 'status'])
@Index('idx_restock_orders_completed', ['namespace', 'completedAt'])
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
}
