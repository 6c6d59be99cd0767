import { Injectable, OnModuleInit } from '@nestjs/common';
import { replenishmentRunSubject } from '../../approvals/approval-subjects';
import { ApprovalsService, Approval, ExecutionRead, RecordEffect } from '../../approvals/approvals.service';
import { Errors } from '../../common/errors';
import { Tx } from '../../database/tx';
import { EventsService } from '../../events/events.service';
import { RunsRepository } from './runs.repository';

/**
 * A run's `replenishment_run` approval: requested when the run passes the budget (on creation, or again when it is
 * placed), and the owner's decision taken into the run (approved → `ready`, rejected → `rejected`), recovered by
 * reading the run when its execution was interrupted.
 */
@Injectable()
export class RunApprovalsService implements OnModuleInit {
  constructor(
    private readonly repo: RunsRepository,
    private readonly approvals: ApprovalsService,
    private readonly events: EventsService,
    private readonly tx: Tx,
  ) {}

  onModuleInit(): void {
    this.approvals.registerHandler('replenishment_run', {
      onApproved: (a, s) => this.approvalEffect(a, s.run_id, true),
      onRejected: (a, s) => this.approvalEffect(a, s.run_id, false),
      recover: (a, s, approved) => this.recoverApproval(a, s.run_id, approved),
    });
  }

  /** A pending approval for run `id` of `totalFen`, which passes the budget `outcome` names. */
  request(id: string, totalFen: number, outcome: Parameters<typeof replenishmentRunSubject>[2], summary: string): Promise<Approval> {
    return this.approvals.create(
      {
        kind: 'replenishment_run',
        subject: replenishmentRunSubject(id, totalFen, outcome),
        summary,
      },
    );
  }

  /**
   * An interrupted execution of a run's approval, read from the run (the service's own record): still awaiting
   * approval → the decision never took effect, so it is recorded now with the approval's outcome (a conditional
   * transition: at most once); any other state → it took effect.
   */
  private async recoverApproval(a: Approval, id: string, approved: boolean): Promise<ExecutionRead> {
    const run = await this.repo.find(id);
    if (!run) return { outcome: 'not_placed' };
    if (run.status === 'awaiting_approval') return { outcome: 'placed', record: () => this.onApproval(a, id, approved) };
    return { outcome: 'placed' };
  }

  /** A decision on the run: refused now unless it awaits approval; its effect is recorded with the approval's outcome. */
  private async approvalEffect(a: Approval, id: string, approved: boolean): Promise<RecordEffect> {
    const run = await this.repo.find(id);
    if (!run) throw Errors.notFound(`replenishment run ${id}`);
    if (run.status !== 'awaiting_approval') throw Errors.conflict('invalid_state', `run ${id} is ${run.status}, not awaiting approval`);
    return () => this.onApproval(a, id, approved);
  }

  private async onApproval(a: Approval, id: string, approved: boolean): Promise<void> {
    await this.tx.run(async () => {
      const moved = await this.repo.transition(id, 'awaiting_approval', approved ? 'ready' : 'rejected', {});
      if (!moved) {
        const run = await this.repo.find(id);
        if (!run) throw Errors.notFound(`replenishment run ${id}`);
        throw Errors.conflict('invalid_state', `run ${id} is ${run.status}, not awaiting approval`);
      }
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${id} ${approved ? 'approved: ready to place' : 'rejected: it will not be placed'}`,
        reasoning: `approval ${a.id} was ${approved ? 'approved' : 'rejected'}`,
        data: { run_id: id, action: approved ? 'approved' : 'rejected', approval_id: a.id },
      });
    });
  }
}

