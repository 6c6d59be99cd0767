import { Injectable } from '@nestjs/common';
import { MoneyClaims } from '../../../claims/money-claims.service';
import { Errors } from '../../../common/errors/errors';
import { Tx } from '../../../database/tx';
import { KillSwitchService } from '../../../guards/kill-switch.service';
import { RunFulfiller } from '../../fulfillers/run-fulfiller';
import { RunFulfillers } from '../../fulfillers/run-fulfillers';
import { supersedingRuns } from '../../plan/inventory-position.rules';
import { OnOrderRepository } from '../../plan/on-order.repository';
import { ReplenishmentRunEntity } from '../replenishment-run.entity';
import { RunApprovalsService } from '../run-approvals.service';
import { placeRefusal, RunStatus } from '../run.rules';
import { RunsRepository } from '../runs.repository';

/**
 * The claim of a place (RunPlacingService orders the steps): under the kill switch, one claim at a time, the run is
 * checked, its amount held against the budget and the run moved to `placing` in one transaction; a run that now
 * passes the budget gets a pending approval instead. Nothing here calls a partner.
 */
@Injectable()
export class RunClaimService {
  constructor(
    private readonly repo: RunsRepository,
    private readonly killSwitch: KillSwitchService,
    private readonly onOrder: OnOrderRepository,
    private readonly runApprovals: RunApprovalsService,
    private readonly claims: MoneyClaims,
    private readonly tx: Tx,
  ) {}

  /** The run to place; none is 404, after the kill switch (it answers first, as for a run that exists). */
  async find(id: string): Promise<ReplenishmentRunEntity> {
    const current = await this.repo.find(id);
    if (!current) {
      await this.killSwitch.assertOff(); // the kill switch answers first, as for a run that exists
      throw Errors.notFound(`replenishment run ${id}`);
    }
    return current;
  }

  /** A run still being placed (or read) is 409 with Retry-After. */
  refuseIfBeingPlaced(run: ReplenishmentRunEntity): void {
    if (run.status === 'placing') {
      throw Errors.conflict('already_placed', 'the run is being placed').with({ retryAfterSeconds: this.claims.retryAfter(run.claimedAt) });
    }
  }

  /**
   * Claims run `id` for placing with `fulfiller`: the run as claimed (`placing`, its claim stamp set). A run that now
   * passes the budget moves to `awaiting_approval` with a new approval, committed, and the place is refused (409).
   */
  async claim(id: string, fulfiller: RunFulfiller): Promise<ReplenishmentRunEntity> {
    const claim = await this.tx.run(async () => {
      await this.killSwitch.assertOff();
      // One claim at a time, so two runs drafted for the same slots cannot both pass the stale check.
      await this.onOrder.lockClaims();
      const run = await this.repo.findForUpdate(id);
      if (!run) throw Errors.notFound(`replenishment run ${id}`);
      const refusal = placeRefusal(run.status as RunStatus, run.approvalId);
      if (refusal) throw Errors.conflict(refusal.code, refusal.text);
      if (run.lines.length === 0) throw Errors.conflict('nothing_to_order', 'the run has no lines to place');
      this.refuseIfSuperseded(run, await this.onOrder.orderedSince(run.id, run.createdAt, RunFulfillers.kindsWith('buysThroughPurchaseOrders')));
      fulfiller.checkClaim(run);
      // A run approved for these very lines is placed whatever the budget says now (the owner approved passing it).
      const approved = await this.runApprovals.covers(run);
      const outcome = await fulfiller.claimBudget(run, approved);
      if (!outcome.ok && !approved) {
        const total = run.totalCostFen ?? 0;
        const approval = await this.runApprovals.request(run, total, outcome, `now passes the ${outcome.limit} budget`);
        await this.repo.transition(id, 'ready', 'awaiting_approval', { approvalId: approval.id });
        return { approval, run: null };
      }
      run.claimedAt = await this.repo.claimForPlacing(id);
      return { approval: null, run };
    });
    if (claim.approval) {
      throw Errors.conflict('approval_required', `the run now passes the budget; approval ${claim.approval.id} must be approved first`);
    }
    return claim.run!;
  }

  /**
   * A run drafted before another run ordered for the same slots counted neither that order nor its delivery:
   * placed as it stands it would order those units twice. It is refused (never re-planned silently); a new run
   * from the current plan orders only what is still missing (docs/adr/0057-inventory-position-and-stale-drafts.md).
   */
  private refuseIfSuperseded(run: ReplenishmentRunEntity, later: Parameters<typeof supersedingRuns>[1]): void {
    const by = supersedingRuns(run.lines.map((l) => l.slot_id), later);
    if (by.length === 0) return;
    throw Errors.conflict(
      'run_superseded',
      `run ${by.join(', ')} ordered for slots of this run after it was drafted; placing it as it stands would order those units twice: create a new run from the current plan (and cancel this one)`,
      '$.lines',
    );
  }
}
