import { Injectable } from '@nestjs/common';
import { Approval } from '../../approvals/approvals.service';
import { Tx } from '../../database/tx';
import { EventsService } from '../../events/events.service';
import { BudgetService } from '../../guards/budget.service';
import type { RunFulfiller } from '../fulfillers/run-fulfiller';
import { ReplenishmentRunEntity, RunLine } from './replenishment-run.entity';
import { RunApprovalsService } from './run-approvals.service';
import { RunsRepository } from './runs.repository';

/** A run drafted from the plan by its fulfiller, about to be stored. */
export type RunDraft = {
  id: string;
  kind: RunFulfiller['kind'];
  namespace: string;
  lines: RunLine[];
  totalFen: number;
  /** The plan's slots below target, for the event's reasoning. */
  slotsToOrder: number;
};

/**
 * Opening a drafted run, in one transaction: guarded by the budget (over it: `awaiting_approval` with a pending
 * `replenishment_run` approval, else `ready`), stored, and its creation recorded as an event.
 */
@Injectable()
export class RunOpeningService {
  constructor(
    private readonly repo: RunsRepository,
    private readonly budget: BudgetService,
    private readonly runApprovals: RunApprovalsService,
    private readonly events: EventsService,
    private readonly tx: Tx,
  ) {}

  async open(draft: RunDraft): Promise<{ run: ReplenishmentRunEntity; approval: Approval | null }> {
    const { id, kind, namespace, lines, totalFen: total } = draft;
    let approval: Approval | null = null;
    const run = await this.tx.run(async () => {
      const outcome = total > 0 ? await this.budget.check(total, new Date()) : ({ ok: true } as const);
      let row = await this.repo.insert(
        {
          id,
          status: outcome.ok ? 'ready' : 'awaiting_approval',
          fulfiller: namespace,
          fulfillerKind: kind,
          costIsEstimated: true,
          totalCostFen: total,
          lines,
          approvalId: null,
        },
      );
      if (!outcome.ok) {
        approval = await this.runApprovals.request({ id, lines, fulfiller: namespace, fulfillerKind: kind }, total, outcome, `passes the ${outcome.limit} budget`);
        await this.repo.update(id, { approvalId: approval.id });
        row = { ...row, approvalId: approval.id };
      }
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${id} created: ${lines.length} line(s), estimated ${total} fen`,
        reasoning: outcome.ok
          ? `built from the current plan (${draft.slotsToOrder} slot(s) below target); within budget`
          : `built from the current plan; it passes the ${outcome.limit} budget, so it waits for an owner approval`,
        data: { run_id: id, action: 'created', total_cost_fen: total, lines: lines.length, approval_id: (approval as Approval | null)?.id ?? null },
      });
      return row;
    });
    return { run, approval };
  }
}
