import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A machine's own route settings; a null column takes the deployment's default (docs/replenishment-policy.md, "The route day"). */
@Entity('route_machine_settings')
export class RouteMachineSettingsEntity {
  @PrimaryColumn('text', { name: 'location_id' })
  locationId: string;

  /** What a stop at this machine costs (fen); null: SERVICE_ROUTE_STOP_COST_FEN. */
  @Column('integer', { name: 'stop_cost_fen', nullable: true })
  stopCostFen: number | null;

  /** Weekdays it can be visited (`mon` … `sun`, +08:00); null: every day. */
  @Column('jsonb', { name: 'visit_days', nullable: true })
  visitDays: string[] | null;

  /** Machines with one site share a stop; null: the machine's address, else the machine itself. */
  @Column('text', { nullable: true })
  site: string | null;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
