import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '../database/bigint-column';

/** A slot whose machine price differs from the last price the service set or approved (issue 30's price audit). */
@Entity('price_audit_flags')
@Index('idx_price_audit_flags_location', ['locationId'])
export class PriceAuditFlagEntity {
  @PrimaryColumn('text', { name: 'slot_id' })
  slotId: string;

  @Column('text', { name: 'location_id' })
  locationId: string;

  @Column('bigint', { name: 'machine_fen', transformer: bigintNumber })
  machineFen: number;

  @Column('bigint', { name: 'service_fen', transformer: bigintNumber })
  serviceFen: number;

  @Column('timestamptz', { name: 'flagged_at', default: () => 'now()' })
  flaggedAt: Date;
}
