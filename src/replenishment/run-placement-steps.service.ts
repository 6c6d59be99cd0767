import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { NewEvent } from '../events/events.repository';
import { ReplenishmentRunEntity } from './replenishment-run.entity';
import { RunsRepository } from './runs.repository';

/** The `replenishment.run` event a fulfiller records when its run is placed (its own words). */
export type PlacedEvent = Omit<NewEvent, 'kind'>;

/** One part of a multi-part place (a location's restock order, a supplier's purchase order). */
export interface RunPartStep<P> {
  /** Sends the part (once; an accepted part is replayed, never sent again, on a retry). */
  send(part: P): Promise<void>;
  /** Records that the part failed after `done` parts were accepted (the caller rethrows). */
  failed(part: P, done: number, err: unknown): Promise<void>;
}

/**
 * What every fulfiller does around its partner calls: a multi-part place renews the claim's lease between parts, and
 * a place that took is recorded as `placed` with the fulfiller's event in one transaction.
 */
@Injectable()
export class RunPlacementSteps {
  constructor(
    private readonly repo: RunsRepository,
    private readonly events: EventsService,
    private readonly tx: Tx,
    private readonly clock: Clock,
  ) {}

  /** Sends every part in order; a failure is recorded by the step and rethrown; then the run is placed. */
  async placeInParts<P>(run: ReplenishmentRunEntity, parts: readonly P[], step: RunPartStep<P>, placed: PlacedEvent): Promise<ReplenishmentRunEntity> {
    let done = 0;
    for (const part of parts) {
      try {
        await step.send(part);
      } catch (err) {
        await step.failed(part, done, err);
        throw err;
      }
      done++;
      // Each part gets its own lease: a run of many parts is not taken for an interrupted one.
      if (done < parts.length) run.claimedAt = (await this.repo.renewClaim(run.id, run.claimedAt)) ?? run.claimedAt;
    }
    return this.markPlaced(run, { placedAt: this.clock.now(), supplierOrderId: null }, placed);
  }

  /**
   * The run is placed and its event recorded, in one transaction; `onPlaced` (the fulfiller's money) runs in it too.
   * The claim may have outlived its lease and been settled meanwhile: an acceptance still counts (the order exists)
   * unless the run is already placed, in which case nothing is recorded twice.
   */
  markPlaced(
    run: ReplenishmentRunEntity,
    patch: Pick<ReplenishmentRunEntity, 'placedAt' | 'supplierOrderId'>,
    placed: PlacedEvent,
    onPlaced?: () => Promise<void>,
  ): Promise<ReplenishmentRunEntity> {
    return this.tx.run(async () => {
      const moved = (await this.repo.settleClaim(run.id, run.claimedAt, 'placed', patch)) || (await this.repo.transition(run.id, 'ready', 'placed', patch));
      if (moved) {
        await onPlaced?.();
        await this.events.record({ kind: 'replenishment.run', ...placed });
      }
      return (await this.repo.find(run.id))!;
    });
  }
}
