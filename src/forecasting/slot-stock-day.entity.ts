import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The lowest stock seen for a slot on one +08:00 calendar day. Recorded at each stock reading (plan computation,
 * the hourly snapshot job, a run's delivery); a zero tells the demand estimate the slot stood empty that day.
 */
@Entity('slot_stock_days')
export class SlotStockDayEntity {
  @PrimaryColumn('text', { name: 'slot_id' })
  slotId: string;

  @PrimaryColumn('date')
  day: string;

  @Column('integer', { name: 'min_stock' })
  minStock: number;

  @Column('timestamptz', { name: 'recorded_at', default: () => 'now()' })
  recordedAt: Date;
}
