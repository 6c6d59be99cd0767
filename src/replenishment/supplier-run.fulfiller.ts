import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import { MoneyClaims } from '../claims/money-claims.service';
import { Errors } from '../common/errors';
import { EventsService } from '../events/events.service';
import { BudgetService } from '../guards/budget.service';
import { SupplyAdapter, SupplyOrderRequest } from '../partners/adapter.types';
import { partnerFailure } from '../partners/partner-failure';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { FULFILLER_KIND, FulfillerTraits } from './fulfiller-kind';
import { ReplenishmentRunEntity, RunLine } from './replenishment-run.entity';
import { ClaimBudgetOutcome, FulfillerRead, FulfillerRunDraft, RunFulfiller, RunViewExtras } from './run-fulfiller';
import { allocateOrders, contractLines, runOrders } from './run-lines.rules';
import { RUN_SPEND_SOURCE as SPEND_SOURCE } from './run.rules';
import { RunPlacementSteps } from './run-placement-steps.service';
import { RunsRepository } from './runs.repository';
import { Tx } from '../database/tx';

/**
 * A supplier fulfiller (the simulated supplier or a registered HTTP one): one supply order with ref = run id,
 * money held against the budget at the claim, spend recorded on acceptance. Never retried: a failure puts the run
 * back to `ready` (the supplier's order ref is the run id, so a manual retry cannot order twice).
 */
@Injectable()
export class SupplierRunFulfiller implements RunFulfiller {
  readonly kind = FULFILLER_KIND.simulatedSupplier;
  readonly traits: FulfillerTraits = {
    sourcing: 'stand_in_supplier',
    leadSamples: 'runs_by_fulfiller',
    needsConfirm: false,
    manyNamespaces: false,
  };
  private readonly logger = new Logger(SupplierRunFulfiller.name);
  constructor(
    private readonly repo: RunsRepository,
    private readonly registry: PartnerRegistry,
    private readonly budget: BudgetService,
    private readonly events: EventsService,
    private readonly claims: MoneyClaims,
    private readonly placement: RunPlacementSteps,
    private readonly tx: Tx,
    private readonly clock: Clock,
  ) {}

  /** One supply order from the plan's supplier; goods summed per supplier and rounded up to the box once. */
  draft(carried: RunLine[], planNamespace: string | null): FulfillerRunDraft {
    const namespace = planNamespace ?? this.registry.simulatedSupplier.namespace;
    const { lines, totalFen } = allocateOrders(carried, namespace);
    return { namespace, lines, totalFen };
  }

  checkClaim(): void {}

  /** The run's estimated total is held against the budget (an approved run passes whatever the limits say now). */
  claimBudget(run: ReplenishmentRunEntity, approved: boolean): Promise<ClaimBudgetOutcome> {
    return this.budget.checkAndHold(run.totalCostFen ?? 0, SPEND_SOURCE, run.id, { ignoreLimits: approved });
  }

  /** Accepted: the held amount is recorded as spent; not placed: it is released. */
  async recovered(run: ReplenishmentRunEntity, placed: boolean): Promise<string> {
    if (placed) {
      await this.budget.recordSpend(run.totalCostFen ?? 0, SPEND_SOURCE, run.id);
      return 'the spend is recorded; nothing was ordered again';
    }
    await this.budget.release(SPEND_SOURCE, run.id);
    return 'the held amount is released; placing it again orders it once';
  }

  viewExtras(): Promise<RunViewExtras> {
    return Promise.resolve({});
  }

  async place(run: ReplenishmentRunEntity): Promise<ReplenishmentRunEntity> {
    const id = run.id;
    const adapter = this.supplier(run.fulfiller);
    // One line per good, summed over the slots and rounded up to the box once; the simulated supplier takes
    // other suppliers' goods as stand-ins (run-lines.rules.ts).
    const request: SupplyOrderRequest = { ref: run.id, lines: runOrders(run.lines, run.fulfiller).flatMap(contractLines), fulfillment: { method: 'restock' } };
    // The one call, never retried (ref = run id).
    const call = await this.claims.callOnce(() => adapter.createOrder(request));
    if (!call.ok) {
      const err = call.error;
      await this.placeFailed(run, call.failure === 'refused', err);
      throw partnerFailure(err, { who: run.fulfiller, refused: (e) => Errors.supplierRejected(e.reason), defects: 'rethrow' });
    }
    const orderId = call.value.orderId ?? call.value.ref;
    return this.placement.markPlaced(
      run,
      { placedAt: this.clock.now(), supplierOrderId: orderId },
      {
        summary: `replenishment run ${id} placed with ${run.fulfiller} (order ${orderId})`,
        reasoning: `${run.lines.length} line(s), estimated ${run.totalCostFen ?? 0} fen; the kill switch was off and the budget allowed it`,
        data: { run_id: id, action: 'placed', fulfiller: run.fulfiller, supplier_order_id: orderId },
      },
      () => this.budget.recordSpend(run.totalCostFen ?? 0, SPEND_SOURCE, run.id),
    );
  }

  async read(run: ReplenishmentRunEntity): Promise<FulfillerRead> {
    const read = await this.claims.read(() => this.supplier(run.fulfiller).getOrder(run.id));
    if (read.outcome === 'placed') {
      return { outcome: 'placed', supplierOrderId: read.value.ref, why: `GET /orders/${run.id} shows the order (state ${read.value.state})` };
    }
    return { outcome: read.outcome, supplierOrderId: null, why: `GET /orders/${run.id} answered: ${read.failure.message}` };
  }

  private supplier(namespace: string): SupplyAdapter {
    const sim = this.registry.simulatedSupplier;
    return namespace === sim.namespace ? sim : this.registry.supply(namespace, 'orders');
  }

  private async placeFailed(run: ReplenishmentRunEntity, rejected: boolean, err: unknown): Promise<void> {
    try {
      const moved = await this.tx.run(async () => {
        // Settled by recovery meanwhile (the claim outlived its lease): this late failure changes nothing.
        if (!(await this.repo.settleClaim(run.id, run.claimedAt, 'ready', {}))) return false;
        // Refused: nothing spent. Unreachable: the order may exist, the amount stays counted as uncertain.
        if (rejected) await this.budget.release(SPEND_SOURCE, run.id);
        else await this.budget.markUncertain(SPEND_SOURCE, run.id);
        // The event commits with the change it records.
        await this.events.record({
          kind: 'replenishment.run',
          summary: `replenishment run ${run.id} not placed: ${run.fulfiller} ${rejected ? 'refused the order' : 'could not be reached'}`,
          reasoning: `${(err as Error).message}; the run is ready again and is not retried automatically`,
          data: { run_id: run.id, action: 'place_failed', fulfiller: run.fulfiller },
        });
        return true;
      });
      if (!moved) return;
    } catch (e) {
      this.logger.error(`run ${run.id}: could not record the failed placement: ${(e as Error).message}`);
    }
  }
}
