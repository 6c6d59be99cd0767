import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { ApprovalEntity } from './approval.entity';
import { APPROVAL_MACHINE, StoredApprovalStatus } from './approval.rules';
import { CLAIM_TIME_NOW, expiredClaims } from '../claims/lease.sql';
import { queryReturning } from '../database/returning';
import { Tx } from '../database/tx';

@Injectable()
export class ApprovalsRepository {
  constructor(private readonly tx: Tx) {}

  private r() {
    return this.tx.manager.getRepository(ApprovalEntity);
  }

  async insert(a: Partial<ApprovalEntity>): Promise<ApprovalEntity> {
    const repo = this.r();
    return repo.save(repo.create(a));
  }

  find(id: string): Promise<ApprovalEntity | null> {
    return this.r().findOne({ where: { id } });
  }

  list(q: { statuses: string[] | null; kind?: string; limit: number }): Promise<ApprovalEntity[]> {
    const where: Record<string, unknown> = {};
    if (q.statuses) where.status = In(q.statuses);
    if (q.kind) where.kind = q.kind;
    return this.r().find({ where, order: { requestedAt: 'DESC', id: 'DESC' }, take: q.limit });
  }

  bySubject(subjectKey: string, kind?: string): Promise<ApprovalEntity[]> {
    const where: Record<string, unknown> = { subjectKey };
    if (kind) where.kind = kind;
    return this.r().find({ where, order: { requestedAt: 'DESC' } });
  }

  /** Claims the execution of a pending approval (one winner across instances); returns the row when it moved. */
  async claimExecution(id: string, execution: { approved: boolean; resolver: Record<string, unknown> }): Promise<ApprovalEntity | null> {
    const moved = await queryReturning(
      this.tx.manager,
      `UPDATE approvals SET status = $3, claimed_at = ${CLAIM_TIME_NOW}, execution = $2::jsonb WHERE id = $1 AND status = $4 RETURNING id`,
      [id, JSON.stringify(execution), APPROVAL_MACHINE.move('pending', 'executing'), 'pending'],
    );
    return moved.length ? this.find(id) : null;
  }

  /** Approvals left `executing` past the lease (database clock), oldest claim first. */
  expiredExecuting(leaseMs: number, limit: number): Promise<ApprovalEntity[]> {
    return expiredClaims(this.r().createQueryBuilder('a'), 'a', 'executing', leaseMs, limit);
  }

  /** Conditional transition in one statement; returns the row when it moved. Leaving `executing` ends its claim. */
  async transition(id: string, from: StoredApprovalStatus, to: StoredApprovalStatus, set: { resolvedAt?: Date | null; resolver?: unknown } = {}): Promise<ApprovalEntity | null> {
    APPROVAL_MACHINE.move(from, to);
    const moved = await queryReturning(
      this.tx.manager,
      `UPDATE approvals SET status = $3,
              claimed_at = CASE WHEN $3 = 'executing' THEN claimed_at ELSE NULL END,
              execution = CASE WHEN $3 = 'executing' THEN execution ELSE NULL END,
              resolved_at = CASE WHEN $4::boolean THEN $5::timestamptz ELSE resolved_at END,
              resolver = CASE WHEN $4::boolean THEN $6::jsonb ELSE resolver END
        WHERE id = $1 AND status = $2 RETURNING id`,
      [id, from, to, 'resolvedAt' in set, set.resolvedAt ?? null, set.resolver === undefined ? null : JSON.stringify(set.resolver)],
    );
    return moved.length ? this.find(id) : null;
  }
}
