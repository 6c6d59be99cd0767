import { Injectable } from '@nestjs/common';
import { Errors } from '../../../common/errors/errors';
import type { Attempt } from '../../../idempotency/idempotency.service';
import { GuardsService } from '../../../guards/guards.service';
import { RunFulfillers } from '../../fulfillers/run-fulfillers';
import { RunClaimService } from './run-claim.service';
import { RunDetailService } from '../run-detail.service';
import { RunPlacementRecorder } from './run-placement-recorder.service';
import { RunRecoveryService } from './run-recovery.service';
import { RunDetail } from '../run.types';

/**
 * Placing a run, in one direction: the run's fulfiller is resolved once; the claim (kill switch, budget held,
 * `placing`) is taken by RunClaimService; the fulfiller calls its partner and answers a `PlacementOutcome` (data);
 * the recorder records it.
 */
@Injectable()
export class RunPlacingService {
  constructor(
    private readonly runClaims: RunClaimService,
    private readonly fulfillers: RunFulfillers,
    private readonly recovery: RunRecoveryService,
    private readonly recorder: RunPlacementRecorder,
    private readonly details: RunDetailService,
    private readonly guards: GuardsService,
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
    const current = await this.runClaims.find(id);
    const fulfiller = this.fulfillers.ofRun(current);
    // A fulfiller that runs a money path takes the same confirmation, before anything else is looked at.
    if (fulfiller.traits.needsConfirm && confirm !== true) throw Errors.confirmationRequired();
    // A run left in `placing` past its lease is settled first (by reading the fulfiller): placed, or ready again.
    const { run: recovered } = await this.recovery.recoverIfExpired(current);
    // A retry of a place whose process died: the run it placed (itself, or through the lease's recovery) is its
    // answer (issue 27); one still being placed or read is 409 with Retry-After.
    if (attempt.resumed && (recovered.status === 'placed' || recovered.status === 'delivered')) return this.details.detail(recovered, fulfiller);
    this.runClaims.refuseIfBeingPlaced(recovered);
    const run = await this.runClaims.claim(id, fulfiller);
    const outcome = await fulfiller.place(run, this.recorder.lease(run));
    return this.details.detail(await this.recorder.record(run, outcome), fulfiller);
  }
}
