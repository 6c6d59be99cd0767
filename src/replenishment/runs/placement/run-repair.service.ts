import { Injectable } from '@nestjs/common';
import { Errors } from '../../../common/errors/errors';
import { Tx } from '../../../database/tx';
import { EventsService } from '../../../events/events.service';
import { RunFulfillers } from '../../fulfillers/run-fulfillers';
import { allocateOrders, dropItems } from '../run-lines.rules';
import { RunPurchaseOrdersService } from './run-purchase-orders.service';
import { RunDetailService } from '../run-detail.service';
import { RunApprovalsService } from '../run-approvals.service';
import { cancelRefusal, RunStatus } from '../run.rules';
import { RunDetail } from '../run.types';
import { RunsRepository } from '../runs.repository';
import { refusedItemIds } from '../../unavailable/unavailable.rules';

/**
 * Repairing a run that cannot be placed as it stands (issue 25): cancel it before it is placed (its pending approval
 * is withdrawn, nothing is sent), or, for a supply-checkout run whose purchase order was refused for some lines,
 * drop exactly those lines so the rest can be placed. Both are a person's explicit action (confirm), never automatic.
 */
@Injectable()
export class RunRepairService {
  constructor(
    private readonly repo: RunsRepository,
    private readonly runApprovals: RunApprovalsService,
    private readonly purchaseOrders: RunPurchaseOrdersService,
    private readonly events: EventsService,
    private readonly details: RunDetailService,
    private readonly tx: Tx,
  ) {}

  async cancel(id: string, reason: string | undefined, confirm?: unknown): Promise<RunDetail> {
    if (confirm !== true) throw Errors.confirmationRequired();
    const why = reason?.trim() || 'cancelled by an operator';
    const run = await this.tx.run(async () => {
      const run = await this.repo.findForUpdate(id);
      if (!run) throw Errors.notFound(`replenishment run ${id}`);
      const status = run.status as RunStatus;
      const refusal = cancelRefusal(status);
      if (refusal) throw Errors.conflict(refusal.code, refusal.text);
      const sessions = RunFulfillers.runHas(run, 'buysThroughPurchaseOrders') ? await this.purchaseOrders.ofRun(id) : [];
      const completed = sessions.filter((s) => s.status === 'completed').map((s) => s.id);
      if (completed.length) {
        throw Errors.conflict(
          'already_placed',
          `purchase order(s) ${completed.join(', ')} of this run were completed: drop the refused lines and place the rest (then close it if it never arrives)`,
        );
      }
      if (status === 'awaiting_approval' && run.approvalId && !(await this.runApprovals.withdraw(run.approvalId, `run ${id} was cancelled: ${why}`))) {
        throw Errors.conflict('invalid_state', `approval ${run.approvalId} of the run is being resolved; read the run again`);
      }
      // Purchase orders opened by an earlier place that failed: cancelled too (none of them was sent).
      await this.purchaseOrders.cancelAll(sessions);
      await this.repo.transition(id, status, 'cancelled', { note: why });
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${id} cancelled before it was placed`,
        reasoning: `${why}; nothing was sent${run.approvalId && status === 'awaiting_approval' ? `; approval ${run.approvalId} withdrawn` : ''}`,
        data: { run_id: id, action: 'cancelled', reason: why, approval_id: run.approvalId, checkout_ids: sessions.map((s) => s.id) },
      });
      return (await this.repo.find(id))!;
    });
    return this.details.detail(run);
  }

  /**
   * Drops the lines a supplier refused as unavailable (the `item_unavailable` lines of the run's purchase orders not
   * completed), re-allocates the rest and updates those purchase orders, so place sends only what can be bought.
   */
  async dropRefused(id: string, confirm?: unknown): Promise<RunDetail> {
    if (confirm !== true) throw Errors.confirmationRequired();
    const run = await this.tx.run(async () => {
      const run = await this.repo.findForUpdate(id);
      if (!run) throw Errors.notFound(`replenishment run ${id}`);
      if (!RunFulfillers.runHas(run, 'buysThroughPurchaseOrders')) throw Errors.conflict('invalid_state', 'only a supply-checkout run has purchase orders whose lines can be refused');
      if (run.status !== 'ready' && run.status !== 'awaiting_approval') {
        throw Errors.conflict('invalid_state', `the run is ${run.status}; lines are dropped only before it is placed`);
      }
      const open = (await this.purchaseOrders.ofRun(id)).filter((s) => s.status !== 'completed' && s.status !== 'canceled');
      const refused = [...new Set(open.flatMap((s) => refusedItemIds(s.messages as { code?: string; path?: string }[], s.lineItems)))].sort();
      if (refused.length === 0) throw Errors.conflict('invalid_state', 'no purchase order of this run refused a line as unavailable; nothing to drop');
      const { keep, dropped } = dropItems(run.lines, refused);
      if (keep.length === 0) throw Errors.conflict('nothing_to_order', 'every line of the run was refused: cancel the run instead');
      const namespace = [...new Set(keep.map((l) => l.supply?.ordered_from ?? run.fulfiller))].sort().join(',');
      const { lines, totalFen } = allocateOrders(keep, namespace);
      await this.purchaseOrders.dropRefused(id, open, refused, new Set(namespace.split(',')), lines);
      await this.repo.update(id, { lines, totalCostFen: totalFen, fulfiller: namespace });
      // The approval covered the old lines only (issue 37): withdrawn and asked again, or let go until place.
      const approval = await this.runApprovals.linesChanged(run, { id, lines, fulfiller: namespace, fulfillerKind: run.fulfillerKind, totalCostFen: totalFen });
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${id}: ${dropped.length} refused line(s) dropped, ${lines.length} left to place`,
        reasoning: `the supplier refused ${refused.join(', ')} as unavailable; an operator dropped those lines (estimated ${run.totalCostFen ?? 0} → ${totalFen} fen) so the rest can be placed${approval}`,
        data: { run_id: id, action: 'lines_dropped', items: refused, slots: dropped.map((l) => l.slot_id), total_cost_fen: totalFen },
      });
      return (await this.repo.find(id))!;
    });
    return this.details.detail(run);
  }
}
