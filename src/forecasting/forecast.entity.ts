import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A demand forecast recorded by a plan: `rate_per_day` for the slot from `made_at` on. One per slot per +08:00 day
 * (the day's latest plan wins), scored by GET /replenishment/score once its horizon has passed.
 */
@Entity('replenishment_forecasts')
@Index('uq_forecasts_slot_day', ['slotId', 'day'], { unique: true })
@Index('idx_forecasts_made_at', ['madeAt'])
export class ForecastEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('text', { name: 'slot_id' })
  slotId: string;

  @Column('text', { name: 'location_id' })
  locationId: string;

  @Column('date')
  day: string;

  @Column('timestamptz', { name: 'made_at' })
  madeAt: Date;

  @Column('double precision', { name: 'rate_per_day' })
  ratePerDay: number;

  @Column('boolean')
  measured: boolean;
}
