import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { ReadOutcome, RecoveryTally } from '../../../claims/claim.rules';
import { MoneyClaims } from '../../../claims/money-claims.service';
import { toPlus8 } from '../../../common/time';
import { EventsService } from '../../../events/events.service';
import { ReplenishmentRunEntity } from '../replenishment-run.entity';
import { RunFulfillers } from '../../fulfillers/run-fulfillers';
import { RunsRepository } from '../runs.repository';

/** What one recovery pass did with the runs left in `placing` past their lease. */
export type RunRecoveryPass = RecoveryTally;

/** Recovery of interrupted places: settled by READING the run's fulfiller, never by ordering again. */
@Injectable()
export class RunRecoveryService {
  constructor(
    private readonly repo: RunsRepository,
    private readonly fulfillers: RunFulfillers,
    private readonly events: EventsService,
    private readonly claims: MoneyClaims,
    private readonly clock: Clock,
  ) {}

  /**
   * A run left in `placing` past its claim's lease (the process placing it died before recording the answer) is
   * settled by READING the fulfiller, never by ordering again. Other runs are returned as they are (`outcome` null).
   */
  async recoverIfExpired(run: ReplenishmentRunEntity): Promise<{ run: ReplenishmentRunEntity; outcome: ReadOutcome | 'moved' | null }> {
    if (run.status !== 'placing' || !this.claims.expired(run.claimedAt)) return { run, outcome: null };
    return this.recover(run);
  }

  /** Scheduled: every run in `placing` past its lease (database clock), oldest claim first, up to `limit`. */
  async recoverExpired(limit = 50): Promise<RunRecoveryPass> {
    const stuck = await this.repo.expiredPlacing(this.claims.leaseMs, limit);
    return this.claims.recoverAll(stuck, async (run) => (await this.recover(run)).outcome);
  }

  /**
   * The run's fulfiller READS its partner (`placed`, `not_placed` or `unknown`: left for the next tick); a clear
   * answer moves the run (`placed`, or `ready` again) and the fulfiller settles its money and words in the same
   * transaction. Not under the kill switch: it only reads.
   */
  private async recover(stuck: ReplenishmentRunEntity): Promise<{ run: ReplenishmentRunEntity; outcome: ReadOutcome | 'moved' }> {
    const fulfiller = this.fulfillers.ofRun(stuck);
    const claimed = stuck.claimedAt ? toPlus8(stuck.claimedAt) : 'an unknown time';
    const outcome = await this.claims.settleByReading(
      `run ${stuck.id}`,
      () => fulfiller.read(stuck),
      (r) => r.why,
      async ({ outcome: read, why, supplierOrderId }) => {
        const placed = read === 'placed';
        const moved = await this.repo.settleClaim(stuck.id, stuck.claimedAt, placed ? 'placed' : 'ready', placed ? { placedAt: this.clock.now(), supplierOrderId } : {});
        if (!moved) return false;
        // The fulfiller settles its money (a supplier's hold is spent or released) and says what that means.
        const settledWords = await fulfiller.recovered(stuck, placed);
        await this.events.record({
          kind: 'replenishment.run',
          summary: placed
            ? `replenishment run ${stuck.id}: an interrupted place is recorded as placed with ${stuck.fulfiller}`
            : `replenishment run ${stuck.id}: an interrupted place left it unplaced; it is ready again`,
          reasoning: `a place claimed at ${claimed} did not finish; ${why}; ${settledWords}`,
          data: { run_id: stuck.id, action: placed ? 'placed' : 'not_placed', fulfiller: stuck.fulfiller, recovered: true },
        });
        return true;
      },
    );
    if (outcome === 'unknown') return { run: stuck, outcome };
    return { run: (await this.repo.find(stuck.id)) ?? stuck, outcome };
  }
}
