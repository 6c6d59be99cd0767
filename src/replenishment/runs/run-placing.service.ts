import { Injectable } from '@nestjs/common';
import { replenishmentRunSubject } from '../../approvals/approval-subjects';
import { ApprovalsService } from '../../approvals/approvals.service';
import { MoneyClaims } from '../../claims/money-claims.service';
import { Errors } from '../../common/errors';
import type { Attempt } from '../../idempotency/idempotency.service';
import { GuardsService } from '../../guards/guards.service';
import { KillSwitchService } from '../../guards/kill-switch.service';
import { ReplenishmentRunEntity } from './replenishment-run.entity';
import { RunFulfillers } from '../fulfillers/run-fulfillers';
import { RunDetailService } from './run-detail.service';
import { RunPlacementRecorder } from './run-placement-recorder.service';
import { RunRecoveryService } from './run-recovery.service';
import { placeRefusal, RunStatus } from './run.rules';
import { RunDetail } from './run.types';
import { RunsRepository } from './runs.repository';
import { Tx } from '../../database/tx';
import { supersedingRuns } from '../plan/inventory-position.rules';
import { OnOrderRepository } from '../plan/on-order.repository';

/**
 * Placing a run, in one direction: the run's fulfiller is resolved once; the claim (kill switch, budget held,
 * `placing`) is taken here; the fulfiller calls its partner and answers a `PlacementOutcome` (data); the recorder
 * records it.
 */
@Injectable()
export class RunPlacingService {
  constructor(
    private readonly repo: RunsRepository,
    private readonly fulfillers: RunFulfillers,
    private readonly recovery: RunRecoveryService,
    private readonly recorder: RunPlacementRecorder,
    private readonly details: RunDetailService,
    private readonly killSwitch: KillSwitchService,
    private readonly guards: GuardsService,
    private readonly approvals: ApprovalsService,
    private readonly onOrder: OnOrderRepository,
    private readonly tx: Tx,
    private readonly claims: MoneyClaims,
  ) {}

  /**
   * Places a ready run with its fulfiller. Kill switch first; the run is claimed (`placing`) and its amount held
   * against the budget in one transaction, so a concurrent second place gets 409 and calls nobody. Never retried:
   * a failure puts the run back to `ready` (the supplier's order ref is the run id, so a manual retry cannot
   * order twice).
   */
  place(id: string, confirm?: unknown, attempt: Attempt = { resumed: false }): Promise<RunDetail> {
    // One guard snapshot for the request, shared by the purchase orders a supply-checkout run completes.
    return this.guards.withSnapshot(() => this.placeOnce(id, confirm, attempt));
  }

  private async placeOnce(id: string, confirm: unknown, attempt: Attempt): Promise<RunDetail> {
    const current = await this.repo.find(id);
    if (!current) {
      await this.killSwitch.assertOff(); // the kill switch answers first, as for a run that exists
      throw Errors.notFound(`replenishment run ${id}`);
    }
    const fulfiller = this.fulfillers.ofRun(current);
    // A fulfiller that runs a money path takes the same confirmation, before anything else is looked at.
    if (fulfiller.traits.needsConfirm && confirm !== true) throw Errors.confirmationRequired();
    // A run left in `placing` past its lease is settled first (by reading the fulfiller): placed, or ready again.
    const { run: recovered } = await this.recovery.recoverIfExpired(current);
    // A retry of a place whose process died: the run it placed (itself, or through the lease's recovery) is its
    // answer (issue 27); one still being placed or read is 409 with Retry-After.
    if (attempt.resumed && (recovered.status === 'placed' || recovered.status === 'delivered')) return this.details.detail(recovered, fulfiller);
    if (recovered.status === 'placing') {
      throw Errors.conflict('already_placed', 'the run is being placed').with({ retryAfterSeconds: this.claims.retryAfter(recovered.claimedAt) });
    }
    const claim = await this.tx.run(async () => {
      await this.killSwitch.assertOff();
      // One claim at a time, so two runs drafted for the same slots cannot both pass the stale check.
      await this.onOrder.lockClaims();
      const run = await this.repo.findForUpdate(id);
      if (!run) throw Errors.notFound(`replenishment run ${id}`);
      const refusal = placeRefusal(run.status as RunStatus, run.approvalId);
      if (refusal) throw Errors.conflict(refusal.code, refusal.text);
      if (run.lines.length === 0) throw Errors.conflict('nothing_to_order', 'the run has no lines to place');
      this.refuseIfSuperseded(run, await this.onOrder.orderedSince(run.id, run.createdAt));
      fulfiller.checkClaim(run);
      // An approved run is placed whatever the budget says now (the owner approved passing it).
      const approved = run.approvalId !== null;
      const outcome = await fulfiller.claimBudget(run, approved);
      if (!outcome.ok && !approved) {
        const total = run.totalCostFen ?? 0;
        const approval = await this.approvals.create(
          {
            kind: 'replenishment_run',
            subject: replenishmentRunSubject(id, total, outcome),
            summary: `replenishment run ${id}, estimated ${total} fen, now passes the ${outcome.limit} budget`,
          },
        );
        await this.repo.transition(id, 'ready', 'awaiting_approval', { approvalId: approval.id });
        return { approval, run: null };
      }
      run.claimedAt = await this.repo.claimForPlacing(id);
      return { approval: null, run };
    });
    if (claim.approval) {
      throw Errors.conflict('approval_required', `the run now passes the budget; approval ${claim.approval.id} must be approved first`);
    }
    const run: ReplenishmentRunEntity = claim.run!;
    const outcome = await fulfiller.place(run, this.recorder.lease(run));
    return this.details.detail(await this.recorder.record(run, outcome), fulfiller);
  }

  /**
   * A run drafted before another run ordered for the same slots counted neither that order nor its delivery:
   * placed as it stands it would order those units twice. It is refused (never re-planned silently); a new run
   * from the current plan orders only what is still missing (docs/decisions.md, issue 25).
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
