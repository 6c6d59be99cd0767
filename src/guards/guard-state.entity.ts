import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The one row of guard state (id 'current'): the section 4 rules document and the kill switch.
 * `rules` is null with `problem` set when the seeded rules were malformed or unreadable (money writes answer 503).
 */
@Entity('guard_state')
export class GuardStateEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('jsonb', { nullable: true })
  rules: Record<string, unknown> | null;

  @Column('text', { nullable: true })
  problem: string | null;

  @Column('boolean', { name: 'kill_switch', default: false })
  killSwitch: boolean;

  @Column('text', { name: 'kill_switch_reason', nullable: true })
  killSwitchReason: string | null;

  @Column('timestamptz', { name: 'kill_switch_changed_at', nullable: true })
  killSwitchChangedAt: Date | null;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
