import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Bookkeeping of the syncs, one row per job key: `ledger:<namespace>` / `inventory:<namespace>` record the last run's
 * outcome (the `stale_data` warning reads it); `schedule:<job>` records the last scheduler tick claimed, so that with
 * several instances on one database each tick runs once.
 */
@Entity('sync_state')
export class SyncStateEntity {
  @PrimaryColumn('text')
  job: string;

  @Column('bigint', { name: 'last_tick', nullable: true })
  lastTick: string | null;

  @Column('timestamptz', { name: 'last_success_at', nullable: true })
  lastSuccessAt: Date | null;

  @Column('timestamptz', { name: 'last_failure_at', nullable: true })
  lastFailureAt: Date | null;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;
}
