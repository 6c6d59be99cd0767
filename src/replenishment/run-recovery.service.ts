import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { toPlus8 } from '../common/time';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { EventsService } from '../events/events.service';
import { BudgetService } from '../guards/budget.service';
import { ReplenishmentRunEntity } from './replenishment-run.entity';
import { RunFulfillers } from './run-fulfillers';
import { placeClaimExpired, placeLeaseMs, PlaceRecoveryOutcome, RUN_SPEND_SOURCE as SPEND_SOURCE } from './run.rules';
import { RunsRepository } from './runs.repository';

/** What one recovery pass did with the runs left in `placing` past their lease. */
export interface RunRecoveryPass {
  checked: number;
  placed: number;
  released: number;
  left: number;
}

/** Recovery of interrupted places: settled by READING the run's fulfiller, never by ordering again. */
@Injectable()
export class RunRecoveryService {
  private readonly logger = new Logger(RunRecoveryService.name);
  private readonly leaseMs: number;
  constructor(
    private readonly repo: RunsRepository,
    private readonly fulfillers: RunFulfillers,
    private readonly budget: BudgetService,
    private readonly events: EventsService,
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.leaseMs = placeLeaseMs(config.partnerTimeoutMs);
  }

  /**
   * A run left in `placing` past its claim's lease (the process placing it died before recording the answer) is
   * settled by READING the fulfiller, never by ordering again. Other runs are returned as they are (`outcome` null).
   */
  async recoverIfExpired(run: ReplenishmentRunEntity): Promise<{ run: ReplenishmentRunEntity; outcome: PlaceRecoveryOutcome | 'moved' | null }> {
    if (run.status !== 'placing' || !placeClaimExpired(run.claimedAt, new Date(), this.leaseMs)) return { run, outcome: null };
    return this.recover(run);
  }

  /** Scheduled: every run in `placing` past its lease (database clock), oldest claim first, up to `limit`. */
  async recoverExpired(limit = 50): Promise<RunRecoveryPass> {
    const out: RunRecoveryPass = { checked: 0, placed: 0, released: 0, left: 0 };
    for (const run of await this.repo.expiredPlacing(this.leaseMs, limit)) {
      out.checked++;
      const { outcome } = await this.recover(run);
      if (outcome === 'placed') out.placed++;
      else if (outcome === 'not_placed') out.released++;
      else if (outcome === 'unknown') out.left++;
    }
    return out;
  }

  /**
   * Supplier: `GET /orders/{run id}` → found: `placed`, spend recorded (idempotent upsert);
   * refused (ref unknown): `ready`, held amount released; no usable answer: left. Machine restock: the run's stored
   * restock orders decide (an order still `sending` is first settled by reading its platform's `GET /restock/{ref}`):
   * all accepted → `placed` here (nothing left to send); otherwise `ready`, and the retry replays the accepted ones.
   * Not under the kill switch: it only reads.
   */
  private async recover(stuck: ReplenishmentRunEntity): Promise<{ run: ReplenishmentRunEntity; outcome: PlaceRecoveryOutcome | 'moved' }> {
    const fulfiller = this.fulfillers.of(stuck);
    const machine = !fulfiller.movesMoney;
    const { outcome, why, supplierOrderId } = await fulfiller.read(stuck);
    if (outcome === 'unknown') {
      this.logger.warn(`run ${stuck.id}: interrupted place not settled (${why}); retried on the next tick`);
      return { run: stuck, outcome };
    }
    const claimed = stuck.claimedAt ? toPlus8(stuck.claimedAt) : 'an unknown time';
    const settled = await this.ds.transaction(async (m) => {
      const placed = outcome === 'placed';
      const moved = await this.repo.settleClaim(
        stuck.id,
        stuck.claimedAt,
        placed ? 'placed' : 'ready',
        placed ? { placedAt: new Date(), supplierOrderId } : {},
        m,
      );
      if (!moved) return { view: null, run: (await this.repo.find(stuck.id, m)) ?? stuck };
      if (!machine) {
        if (placed) await this.budget.recordSpend(stuck.totalCostFen ?? 0, SPEND_SOURCE, stuck.id, m);
        else await this.budget.release(SPEND_SOURCE, stuck.id, m);
      }
      const view = await this.events.record(
        {
          kind: 'replenishment.run',
          summary: placed
            ? `replenishment run ${stuck.id}: an interrupted place is recorded as placed with ${stuck.fulfiller}`
            : `replenishment run ${stuck.id}: an interrupted place left it unplaced; it is ready again`,
          reasoning: `a place claimed at ${claimed} did not finish; ${why}; ${
            placed
              ? machine
                ? 'every location was accepted, so the run is placed; nothing was sent again'
                : 'the spend is recorded; nothing was ordered again'
              : machine
                ? 'placing it again replays the accepted locations and sends only the rest'
                : 'the held amount is released; placing it again orders it once'
          }`,
          data: { run_id: stuck.id, action: placed ? 'placed' : 'not_placed', fulfiller: stuck.fulfiller, recovered: true },
        },
        m,
      );
      return { view, run: (await this.repo.find(stuck.id, m))! };
    });
    if (!settled.view) return { run: settled.run, outcome: 'moved' };
    await this.events.publish(settled.view);
    return { run: settled.run, outcome };
  }
}
