import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { Tx } from '../../../database/tx';
import { EventsService } from '../../../events/events.service';
import { BudgetService } from '../../../guards/budget.service';
import { ReplenishmentRunEntity } from '../replenishment-run.entity';
import { NotPlacedOutcome, PlacedOutcome, PlacementOutcome, RunHold, RunLease } from '../../fulfillers/run-fulfiller';
import { RUN_SPEND_SOURCE } from '../run.rules';
import { RunsRepository } from '../runs.repository';
import { UnavailableRepository } from '../../unavailable/unavailable.repository';

/**
 * Records what a fulfiller's place came to (its `PlacementOutcome`), for every kind: the run's state, the budget hold,
 * the goods refused as unavailable and the fulfiller's event, in one transaction. Also the claim's lease between the
 * parts of a multi-part place.
 */
@Injectable()
export class RunPlacementRecorder {
  private readonly logger = new Logger(RunPlacementRecorder.name);
  constructor(
    private readonly repo: RunsRepository,
    private readonly events: EventsService,
    private readonly budget: BudgetService,
    private readonly unavailable: UnavailableRepository,
    private readonly tx: Tx,
    private readonly clock: Clock,
  ) {}

  /** The lease of a claimed run: each renewal moves `run.claimedAt`, which the record then settles against. */
  lease(run: ReplenishmentRunEntity): RunLease {
    return {
      renew: async () => {
        run.claimedAt = (await this.repo.renewClaim(run.id, run.claimedAt)) ?? run.claimedAt;
      },
    };
  }

  /** Placed: the run as stored afterwards. Not placed: recorded, then the outcome's error is thrown. */
  async record(run: ReplenishmentRunEntity, outcome: PlacementOutcome): Promise<ReplenishmentRunEntity> {
    if (outcome.placed) return this.placed(run, outcome);
    await this.notPlaced(run, outcome);
    throw outcome.error;
  }

  /**
   * The run is placed and its event recorded, in one transaction with its hold spent. The claim may have outlived its
   * lease and been settled meanwhile: an acceptance still counts (the order exists) unless the run is already placed,
   * in which case nothing is recorded twice.
   */
  private placed(run: ReplenishmentRunEntity, outcome: PlacedOutcome): Promise<ReplenishmentRunEntity> {
    return this.tx.run(async () => {
      const patch = { placedAt: this.clock.now(), supplierOrderId: outcome.supplierOrderId };
      const moved = (await this.repo.settleClaim(run.id, run.claimedAt, 'placed', patch)) || (await this.repo.transition(run.id, 'ready', 'placed', patch));
      if (moved) {
        await this.settleHold(run, outcome.hold);
        await this.events.record({ kind: 'replenishment.run', ...outcome.event });
      }
      return (await this.repo.find(run.id))!;
    });
  }

  /**
   * A clear failure puts the run back to `ready` (unless recovery settled it meanwhile: then this late failure changes
   * nothing); an ambiguous one keeps the claim for recovery, which reads the partner. A failure to record is logged:
   * the caller still gets the place's error.
   */
  private async notPlaced(run: ReplenishmentRunEntity, outcome: NotPlacedOutcome): Promise<void> {
    try {
      await this.tx.run(async () => {
        if (outcome.claim === 'release' && !(await this.repo.settleClaim(run.id, run.claimedAt, 'ready', {}))) return;
        await this.settleHold(run, outcome.hold);
        for (const u of outcome.unavailable) await this.unavailable.mark(u.namespace, u.vendorSku, u.note, run.id);
        // The event commits with the change it records.
        await this.events.record({ kind: 'replenishment.run', ...outcome.event });
      });
    } catch (e) {
      this.logger.error(`run ${run.id}: could not record the failed placement: ${(e as Error).message}`);
    }
  }

  /** Refused: nothing spent, released. Unreachable: the order may exist, so the amount stays counted as uncertain. */
  private async settleHold(run: ReplenishmentRunEntity, hold: RunHold): Promise<void> {
    if (hold === 'spend') await this.budget.recordSpend(run.totalCostFen ?? 0, RUN_SPEND_SOURCE, run.id);
    else if (hold === 'release') await this.budget.release(RUN_SPEND_SOURCE, run.id);
    else if (hold === 'uncertain') await this.budget.markUncertain(RUN_SPEND_SOURCE, run.id);
  }
}
