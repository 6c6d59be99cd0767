import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The lowest stock seen for a slot on one +08:00 calendar day of the SERVICE clock. Recorded at every stock reading
 * or change: each inventory sync (`recordStockReadings`), a delivery and a depot fill (the lower of before and after),
 * each plan and the hourly snapshot job (the synced copy); a zero tells the demand estimate the slot stood empty.
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
