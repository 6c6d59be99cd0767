import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '../database/bigint-column';
import type { DataWarning } from './sale-order.rules';

/**
 * One ledger record (a machine sale order) as last read from the platform. A revised record replaces this row;
 * `updated_at` is the platform's revision time so consumers dedupe on (id, updated_at).
 * Keyset pagination uses (taken_at, id), with and without location.
 */
@Entity('sale_orders')
@Index('idx_sale_orders_taken', ['takenAt', 'id'])
@Index('idx_sale_orders_location_taken', ['locationId', 'takenAt', 'id'])
@Index('idx_sale_orders_updated', ['updatedAt', 'id'])
export class SaleOrderEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  namespace: string;

  @Column('text', { name: 'location_id' })
  locationId: string;

  @Column('bigint', { name: 'total_fen', transformer: bigintNumber })
  totalFen: number;

  /** takenAt, else createdAt (docs/contract/). */
  @Column('timestamptz', { name: 'taken_at' })
  takenAt: Date;

  /** Whether the platform sent takenAt/settledAt/updatedAt/finalized: only those pass through. */
  @Column('boolean', { name: 'has_taken_at', default: false })
  hasTakenAt: boolean;

  @Column('timestamptz', { name: 'settled_at', nullable: true })
  settledAt: Date | null;

  @Column('timestamptz', { name: 'updated_at', nullable: true })
  updatedAt: Date | null;

  @Column('boolean', { nullable: true })
  finalized: boolean | null;

  /** Normalised trade status (one of the six), or null when neither the adapter nor the lines give one. */
  @Column('text', { name: 'trade_status', nullable: true })
  tradeStatus: string | null;

  @Column('text', { name: 'trade_status_raw', nullable: true })
  tradeStatusRaw: string | null;

  @Column('text', { name: 'trade_status_label', nullable: true })
  tradeStatusLabel: string | null;

  @Column('timestamptz', { name: 'ingested_at', default: () => 'now()' })
  ingestedAt: Date;

  /** Problems with a record that was kept (unknown state words): shown as `warning` messages naming the order. */
  @Column('jsonb', { name: 'data_warnings', nullable: true })
  dataWarnings: DataWarning[] | null;
}
