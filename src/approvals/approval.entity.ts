import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An owner approval (docs/contract/). `status` is pending | approved | rejected, plus the internal
 * `executing` while an approval's action runs (shown as pending). `subject_key` is the id the approval is
 * about (a session id, a slot id, a run id) so a capability can find its approvals.
 */
@Entity('approvals')
@Index('idx_approvals_status_requested', ['status', 'requestedAt', 'id'])
@Index('idx_approvals_subject', ['subjectKey', 'kind'])
export class ApprovalEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  kind: string;

  @Column('text', { default: 'pending' })
  status: string;

  @Column('jsonb')
  subject: Record<string, unknown>;

  @Column('text', { name: 'subject_key', nullable: true })
  subjectKey: string | null;

  @Column('text')
  summary: string;

  @Column('text', { nullable: true })
  location: string | null;

  @Column('timestamptz', { name: 'requested_at', default: () => 'now()' })
  requestedAt: Date;

  /** Who asked (requester.rules): the channel, credential and agent of the creating request; null before issue 30. */
  @Column('jsonb', { name: 'requested_by', nullable: true })
  requestedBy: Record<string, unknown> | null;

  @Column('timestamptz', { name: 'resolved_at', nullable: true })
  resolvedAt: Date | null;

  @Column('jsonb', { nullable: true })
  resolver: Record<string, unknown> | null;

  /** When the approval entered `executing` (database clock): the lease of an interrupted execution. */
  @Column('timestamptz', { name: 'claimed_at', nullable: true })
  claimedAt: Date | null;

  /** The decision being executed while `executing` (approved, resolver), so recovery can finish it. */
  @Column('jsonb', { nullable: true })
  execution: { approved: boolean; resolver: Record<string, unknown> } | null;
}
