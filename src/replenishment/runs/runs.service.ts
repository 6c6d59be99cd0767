import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { message, UcpMessage, warning } from '../../common/envelope/envelope';
import { Errors } from '../../common/errors/errors';
import type { RunFulfiller } from '../fulfillers/run-fulfiller';
import { RunFulfillers } from '../fulfillers/run-fulfillers';
import { PlanService } from '../plan/plan.service';
import { PlanLine } from '../plan/plan.types';
import { RunLine } from './replenishment-run.entity';
import { RunOpeningService } from './run-opening.service';
import { RunRecoveryService } from './placement/run-recovery.service';
import { RunDetailService } from './run-detail.service';
import { isRunStatus, RUN_STATUSES } from './run.rules';
import { RunDetail, RunListed } from './run.types';
import { RunsRepository } from './runs.repository';

/**
 * Replenishment runs: built from the current plan, guarded by the budget (over it: a pending `replenishment_run`
 * approval), placed with the run's fulfiller under the kill switch (RunPlacingService), received into stock
 * (RunDeliveryService). Fulfillers: the simulated supplier (one supply order standing in for the resolved suppliers,
 * money held against the budget), `supply_checkout` (one purchase order per resolved supplier, completed by
 * checkout) or `machine_restock` (one binding restock order per location to its machine platform; no money moves).
 */
@Injectable()
export class RunsService {
  constructor(
    private readonly repo: RunsRepository,
    private readonly plans: PlanService,
    private readonly fulfillers: RunFulfillers,
    private readonly opening: RunOpeningService,
    private readonly recovery: RunRecoveryService,
    private readonly details: RunDetailService,
  ) {}

  /** The run created, and what its creation says (the plan's messages, nothing to order, approval required). */
  /** `fulfiller`: the kind asked for; none: the registry's default. */
  async create(opts: { fulfiller?: RunFulfiller['kind']; location?: string } = {}): Promise<{ detail: RunDetail; messages: UcpMessage[] }> {
    const fulfiller = this.fulfillers.of(opts.fulfiller);
    const kind = fulfiller.kind;
    // Supplier fulfillers resolve every good through the SKU registry; their catalogs must be readable.
    const requireCatalog = fulfiller.traits.sourcing !== 'machine_platform';
    const plan = await this.plans.computeAndRecord({ fulfiller: kind, location: opts.location, ...(requireCatalog ? { requireCatalog } : {}) });
    const carried = plan.lines.filter((l) => l.quantity > 0 && l.carriedByFulfiller).map(toRunLine);
    // The plan already names each good nobody sells (not_carried, one per good).
    const messages: UcpMessage[] = [...plan.messages];
    if (carried.length === 0) messages.push(warning('nothing_to_order', 'the plan orders nothing now; the run has no lines', '$.lines'));
    const { namespace, lines, totalFen: total } = fulfiller.draft(carried, plan.fulfiller.namespace);
    const { run, approval } = await this.opening.open({
      id: `run-${randomUUID()}`,
      kind,
      namespace,
      lines,
      totalFen: total,
      slotsToOrder: plan.totals.slotsToOrder,
    });
    if (approval) {
      messages.push(
        message(
          'approval_required',
          'requires_buyer_review',
          `the run passes the budget; approval ${approval.id} must be approved before it can be placed`,
          '$.status',
        ),
      );
    }
    return { detail: await this.details.detail(run, fulfiller), messages };
  }

  /** Newest first, at most 200, without their lines (GET /replenishment/runs/{id} has them). */
  async list(status?: string): Promise<RunListed[]> {
    if (status !== undefined && !isRunStatus(status)) {
      throw Errors.invalid('$.status', `status must be one of ${RUN_STATUSES.join(', ')}`);
    }
    return (await this.repo.list({ status, limit: 200 })).map((r) => this.details.listed(r));
  }

  async get(id: string): Promise<RunDetail> {
    const run = await this.repo.find(id);
    if (!run) throw Errors.notFound(`replenishment run ${id}`);
    return this.details.detail((await this.recovery.recoverIfExpired(run)).run);
  }
}

/** A plan line the run orders, as the run stores it. */
function toRunLine(l: PlanLine): RunLine {
  return {
    slot_id: l.slotId,
    location: l.locationId,
    item: { id: l.skuId },
    vendor_sku: l.vendorSku,
    title: l.title,
    unit: l.unit,
    contains: l.contains,
    quantity: l.quantity,
    quantity_each: l.quantityEach,
    ordered_each: l.orderedEach,
    unit_price_fen: l.unitPriceFen,
    cost_estimate_fen: l.costEstimateFen,
    stock: l.stock,
    capacity: l.capacity,
    target: l.target,
    ...(l.supply
      ? { supply: { item: { id: l.supply.skuId }, namespace: l.supply.namespace, vendor_sku: l.supply.vendorSku, via: l.supply.via, ordered_from: l.supply.orderedFrom } }
      : {}),
  };
}
