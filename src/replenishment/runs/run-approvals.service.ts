import { Injectable, OnModuleInit } from '@nestjs/common';
import { readSubject, replenishmentRunSubject, RunApprovalLine } from '../../approvals/approval-subjects';
import { ApprovalsService, Approval, ExecutionRead, RecordEffect } from '../../approvals/approvals.service';
import { Errors } from '../../common/errors/errors';
import { Tx } from '../../database/tx';
import { EventsService } from '../../events/events.service';
import { BudgetService } from '../../guards/budget.service';
import { LocationsRepository } from '../../locations/locations.repository';
import { RunFulfillers } from '../fulfillers/run-fulfillers';
import { ReplenishmentRunEntity } from './replenishment-run.entity';
import { runKey, runPurchaseKeys } from './run-lines.rules';
import { RunsRepository } from './runs.repository';

/** The parts of a run its approval is about. */
export type RunSubjectSource = Pick<ReplenishmentRunEntity, 'id' | 'lines' | 'fulfiller' | 'fulfillerKind'>;

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
    private readonly locations: LocationsRepository,
    private readonly budget: BudgetService,
  ) {}

  onModuleInit(): void {
    this.approvals.registerHandler('replenishment_run', {
      onApproved: (a, s) => this.approvalEffect(a, s.run_id, true),
      onRejected: (a, s) => this.approvalEffect(a, s.run_id, false),
      recover: (a, s, approved) => this.recoverApproval(a, s.run_id, approved),
    });
  }

  /**
   * A pending approval for `run` of `totalFen`, which passes the budget `outcome` names. Its subject is everything the
   * run moves (issue 37): each line's machine (by name), good, units and estimated cost, the fulfiller, the lines' key
   * and, for a run that buys through purchase orders, those it lets checkout complete.
   */
  async request(run: RunSubjectSource, totalFen: number, outcome: Parameters<typeof replenishmentRunSubject>[2], why: string): Promise<Approval> {
    const names = await this.locations.names([...new Set(run.lines.map((l) => l.location))]);
    const lines: RunApprovalLine[] = run.lines.map((l) => ({
      slot_id: l.slot_id,
      location: l.location,
      machine: names.get(l.location) ?? l.location,
      item_id: l.supply?.item.id ?? l.item.id,
      title: l.title,
      units: l.quantity_each,
      ordered_units: l.ordered_each,
      quantity: l.quantity,
      unit: l.unit,
      cost_estimate_fen: l.cost_estimate_fen,
      supplier: l.supply?.ordered_from ?? run.fulfiller,
    }));
    const machines = new Set(lines.map((l) => l.machine)).size;
    const goods = new Set(lines.map((l) => l.item_id)).size;
    const units = lines.reduce((t, l) => t + l.units, 0);
    const purchaseOrders = RunFulfillers.runHas(run, 'buysThroughPurchaseOrders') ? runPurchaseKeys(run.id, run.lines, run.fulfiller) : [];
    return this.approvals.create({
      kind: 'replenishment_run',
      subject: replenishmentRunSubject(run.id, totalFen, outcome, { fulfiller: run.fulfiller, key: runKey(run.lines, totalFen, run.fulfiller), lines, purchaseOrders }),
      summary: `replenishment run ${run.id}: ${units} unit(s) of ${goods} good(s) for ${machines} machine(s) from ${run.fulfiller}, estimated ${totalFen} fen, ${why}`,
    });
  }

  /**
   * Whether the run's approval covers the run as it stands: approved, and given for these very lines (its key). An
   * approval given before its subject named the lines (before issue 37) covers nothing: place asks again.
   */
  async covers(run: ReplenishmentRunEntity): Promise<boolean> {
    if (!run.approvalId) return false;
    const a = (await this.approvals.forSubject(run.id, 'replenishment_run')).find((x) => x.id === run.approvalId);
    const key = a && a.status === 'approved' ? readSubject('replenishment_run', a.subject)?.key : undefined;
    return key !== undefined && key === runKey(run.lines, run.totalCostFen ?? 0, run.fulfiller);
  }

  /** Withdraws the run's pending approval (the run is cancelled): false when it is being resolved or resolved. */
  withdraw(approvalId: string, why: string): Promise<boolean> {
    return this.approvals.withdrawForGoneSubject(approvalId, why);
  }

  /**
   * The run's lines changed (refused lines dropped), inside the caller's transaction: an approval given or asked for
   * the old lines no longer covers it (issue 37). A pending one is withdrawn and, when the run still passes the
   * budget, a new one is asked for the new lines; an approved one is let go, so place checks the budget again and asks
   * again when the run still passes it. Returns what happened, in words, for the event.
   */
  async linesChanged(before: ReplenishmentRunEntity, after: RunSubjectSource & { totalCostFen: number }): Promise<string> {
    if (!before.approvalId) return '';
    if (before.status === 'awaiting_approval') {
      if (!(await this.approvals.withdrawForGoneSubject(before.approvalId, `run ${before.id}'s lines changed after this approval was asked: it no longer covers the run`))) {
        throw Errors.conflict('invalid_state', `approval ${before.approvalId} of the run is being resolved; read the run again`);
      }
      const outcome = await this.budget.check(after.totalCostFen, new Date());
      if (outcome.ok) {
        await this.repo.transition(before.id, 'awaiting_approval', 'ready', { approvalId: null });
        return `; approval ${before.approvalId} withdrawn (it was asked for the old lines); the run is now within budget and ready`;
      }
      const next = await this.request(after, after.totalCostFen, outcome, `passes the ${outcome.limit} budget (asked again: its lines changed)`);
      await this.repo.update(before.id, { approvalId: next.id });
      return `; approval ${before.approvalId} withdrawn (it was asked for the old lines); approval ${next.id} asked for the new lines`;
    }
    await this.repo.update(before.id, { approvalId: null });
    return `; approval ${before.approvalId} covered the old lines only: place checks the budget again and asks the owner again if the run passes it`;
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

