import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One slot of a recorded visit. */
export interface VisitSlotRecord {
  slot_id: string;
  loaded: number;
  returned: number;
  stock_before: number;
  stock_after: number;
}

/** A driver's visit to a machine: what went into each slot from the van and what came back (one event each). */
@Entity('machine_visits')
@Index('idx_machine_visits_location', ['locationId', 'recordedAt'])
export class MachineVisitEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'location_id' })
  locationId: string;

  @Column('timestamptz', { name: 'recorded_at' })
  recordedAt: Date;

  @Column('integer', { name: 'units_loaded' })
  unitsLoaded: number;

  @Column('integer', { name: 'units_returned' })
  unitsReturned: number;

  @Column('jsonb')
  slots: VisitSlotRecord[];

  @Column('text', { nullable: true })
  note: string | null;
}
