import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A good a supplier refused as unavailable for a run's purchase order (issue 25): not chosen from that supplier
 * again until its catalog, read after the refusal, offers it again (unavailable.rules.ts).
 */
@Entity('supply_unavailable')
export class SupplyUnavailableEntity {
  @PrimaryColumn('text')
  namespace: string;

  @PrimaryColumn('text', { name: 'vendor_sku' })
  vendorSku: string;

  @Column('timestamptz', { name: 'marked_at' })
  markedAt: Date;

  @Column('text')
  reason: string;

  /** The run whose purchase order was refused. */
  @Column('text', { name: 'run_id', nullable: true })
  runId: string | null;
}
