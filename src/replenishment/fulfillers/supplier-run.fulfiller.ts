import { Injectable } from '@nestjs/common';
import { MoneyClaims } from '../../claims/money-claims.service';
import { Errors } from '../../common/errors/errors';
import { BudgetService } from '../../guards/budget.service';
import { SupplyAdapter, SupplyOrderRequest } from '../../partners/adapter.types';
import { partnerFailure } from '../../partners/partner-failure';
import { PartnerRegistry } from '../../partners/registry/partner-registry';
import { FULFILLER_KIND } from '../fulfiller-kind';
import { ReplenishmentRunEntity, RunLine } from '../runs/replenishment-run.entity';
import { ClaimBudgetOutcome, FulfillerRead, FulfillerRunDraft, FulfillerTraits, PlacementOutcome, RunFulfiller } from './run-fulfiller';
import { allocateOrders, contractLines, runOrders } from '../runs/run-lines.rules';
import { RUN_SPEND_SOURCE as SPEND_SOURCE } from '../runs/run.rules';
import { RunPartnerOrders } from '../runs/run.types';

/**
 * A supplier fulfiller (the simulated supplier or a registered HTTP one): one supply order with ref = run id,
 * money held against the budget at the claim, spend recorded on acceptance. Never retried: a failure puts the run
 * back to `ready` (the supplier's order ref is the run id, so a manual retry cannot order twice).
 */
@Injectable()
export class SupplierRunFulfiller implements RunFulfiller {
  static readonly kind = FULFILLER_KIND.simulatedSupplier;
  static readonly traits: FulfillerTraits = {
    sourcing: 'stand_in_supplier',
    leadSamples: { from: 'runs_by_fulfiller' },
    needsConfirm: false,
    manyNamespaces: false,
    buysThroughPurchaseOrders: false,
    deliveredByPlatform: false,
  };
  readonly kind = SupplierRunFulfiller.kind;
  readonly traits = SupplierRunFulfiller.traits;
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly budget: BudgetService,
    private readonly claims: MoneyClaims,
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

  /** Its order id is on the run (`supplier_order_id`): nothing else at the partner to show. */
  partnerOrders(): Promise<RunPartnerOrders> {
    return Promise.resolve({});
  }

  /**
   * The one call, never retried (ref = run id). Accepted: placed, the held amount spent. Refused: ready again, the
   * hold released. Unreachable: ready again, the hold kept as uncertain (the order may exist).
   */
  async place(run: ReplenishmentRunEntity): Promise<PlacementOutcome> {
    const id = run.id;
    const adapter = this.supplier(run.fulfiller);
    // One line per good, summed over the slots and rounded up to the box once; the simulated supplier takes
    // other suppliers' goods as stand-ins (run-lines.rules.ts).
    const request: SupplyOrderRequest = { ref: run.id, lines: runOrders(run.lines, run.fulfiller).flatMap(contractLines), fulfillment: { method: 'restock' } };
    const call = await this.claims.callOnce(() => adapter.createOrder(request));
    if (!call.ok) {
      const err = call.error;
      const rejected = call.failure === 'refused';
      return {
        placed: false,
        error: partnerFailure(err, { who: run.fulfiller, refused: (e) => Errors.supplierRejected(e.reason), defects: 'rethrow' }),
        claim: 'release',
        hold: rejected ? 'release' : 'uncertain',
        unavailable: [],
        event: {
          summary: `replenishment run ${id} not placed: ${run.fulfiller} ${rejected ? 'refused the order' : 'could not be reached'}`,
          reasoning: `${(err as Error).message}; the run is ready again and is not retried automatically`,
          data: { run_id: id, action: 'place_failed', fulfiller: run.fulfiller },
        },
      };
    }
    const orderId = call.value.orderId ?? call.value.ref;
    return {
      placed: true,
      supplierOrderId: orderId,
      hold: 'spend',
      event: {
        summary: `replenishment run ${id} placed with ${run.fulfiller} (order ${orderId})`,
        reasoning: `${run.lines.length} line(s), estimated ${run.totalCostFen ?? 0} fen; the kill switch was off and the budget allowed it`,
        data: { run_id: id, action: 'placed', fulfiller: run.fulfiller, supplier_order_id: orderId },
      },
    };
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
}
