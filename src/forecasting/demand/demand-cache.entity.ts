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

  /** Units and squares sold on the empty days (left out of the rate: a lower bound of those days' demand). */
  @Column('bigint', { name: 'empty_units', default: 0 })
  emptyUnits: string;

  @Column('bigint', { name: 'empty_sumsq', default: 0 })
  emptySumsq: string;

  @Column('boolean', { name: 'first_snap_empty', default: false })
  firstSnapEmpty: boolean;

  /** The slot's machine: first day with a sale of any of its slots, first day any of them was read. */
  @Column('integer', { name: 'machine_first_d', nullable: true })
  machineFirstD: number | null;

  @Column('integer', { name: 'machine_first_snap', nullable: true })
  machineFirstSnap: number | null;
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
