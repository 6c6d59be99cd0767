import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Per-slot demand aggregates of one sales window of complete days (sales and stock snapshots of past days), so a
 * plan does not re-aggregate months of sales each time. Valid while no sale of the window was (re)ingested and no
 * snapshot of the window was recorded after `demand_cache_runs.valid_from`.
 */
@Entity('demand_cache')
export class DemandCacheEntity {
  @PrimaryColumn('date', { name: 'window_start' })
  windowStart: string;

  @PrimaryColumn('text', { name: 'slot_id' })
  slotId: string;

  @Column('bigint', { default: 0 })
  units: string;

  @Column('bigint', { default: 0 })
  sumsq: string;

  @Column('integer', { name: 'first_d', nullable: true })
  firstD: number | null;

  @Column('integer', { name: 'last_d', nullable: true })
  lastD: number | null;

  @Column('integer', { name: 'first_snap', nullable: true })
  firstSnap: number | null;

  @Column('integer', { name: 'empty_days', default: 0 })
  emptyDays: number;

  @Column('integer', { name: 'empty_after', default: 0 })
  emptyAfter: number;
}

/** One computed window: when its aggregates were computed, and the time changes after which invalidate it. */
@Entity('demand_cache_runs')
export class DemandCacheRunEntity {
  @PrimaryColumn('date', { name: 'window_start' })
  windowStart: string;

  @PrimaryColumn('integer', { name: 'window_days' })
  windowDays: number;

  @Column('timestamptz', { name: 'valid_from' })
  validFrom: Date;

  @Column('timestamptz', { name: 'computed_at', default: () => 'now()' })
  computedAt: Date;

  @Column('integer')
  slots: number;
}
