import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { replenishmentRunSubject } from '../../approvals/approval-subjects';
import { ApprovalsService, Approval, ExecutionRead, RecordEffect } from '../../approvals/approvals.service';
import { message, UcpMessage, warning } from '../../common/envelope';
import { Errors } from '../../common/errors';
import { EventsService } from '../../events/events.service';
import { BudgetService } from '../../guards/budget.service';
import { FULFILLER_KIND, FulfillerKind } from '../fulfiller-kind';
import { RunFulfillers } from '../fulfillers/run-fulfillers';
import { PlanService } from '../plan/plan.service';
import { PlanLine } from '../plan/plan.types';
import { RunLine } from './replenishment-run.entity';
import { RunRecoveryService } from './run-recovery.service';
import { RunDetailService } from './run-detail.service';
import { isRunStatus, RUN_STATUSES } from './run.rules';
import { RunDetail, RunListed } from './run.types';
import { RunsRepository } from './runs.repository';
import { Tx } from '../../database/tx';

/**
 * Replenishment runs: built from the current plan, guarded by the budget (over it: a pending `replenishment_run`
 * approval), placed with the run's fulfiller under the kill switch (RunPlacingService), received into stock
 * (RunDeliveryService). Fulfillers: the simulated supplier (one supply order standing in for the resolved suppliers,
 * money held against the budget), `supply_checkout` (one purchase order per resolved supplier, completed by
 * checkout) or `machine_restock` (one binding restock order per location to its machine platform; no money moves).
 */
@Injectable()
export class RunsService implements OnModuleInit {
  constructor(
    private readonly repo: RunsRepository,
    private readonly plans: PlanService,
    private readonly fulfillers: RunFulfillers,
    private readonly budget: BudgetService,
    private readonly approvals: ApprovalsService,
    private readonly events: EventsService,
    private readonly recovery: RunRecoveryService,
    private readonly details: RunDetailService,
    private readonly tx: Tx,
  ) {}

  onModuleInit(): void {
    this.approvals.registerHandler('replenishment_run', {
      onApproved: (a, s) => this.approvalEffect(a, s.run_id, true),
      onRejected: (a, s) => this.approvalEffect(a, s.run_id, false),
      recover: (a, s, approved) => this.recoverApproval(a, s.run_id, approved),
    });
  }

  /** The run created, and what its creation says (the plan's messages, nothing to order, approval required). */
  async create(opts: { fulfiller?: FulfillerKind; location?: string } = {}): Promise<{ detail: RunDetail; messages: UcpMessage[] }> {
    const kind: FulfillerKind = opts.fulfiller ?? FULFILLER_KIND.simulatedSupplier;
    const fulfiller = this.fulfillers.of(kind);
    // Supplier fulfillers resolve every good through the SKU registry; their catalogs must be readable.
    const requireCatalog = fulfiller.traits.sourcing !== 'machine_platform';
    const plan = await this.plans.computeAndRecord({ fulfiller: kind, location: opts.location, ...(requireCatalog ? { requireCatalog } : {}) });
    const carried = plan.lines.filter((l) => l.quantity > 0 && l.carriedByFulfiller).map(toRunLine);
    // The plan already names each good nobody sells (not_carried, one per good).
    const messages: UcpMessage[] = [...plan.messages];
    if (carried.length === 0) messages.push(warning('nothing_to_order', 'the plan orders nothing now; the run has no lines', '$.lines'));
    const { namespace, lines, totalFen: total } = fulfiller.draft(carried, plan.fulfiller.namespace);
    const id = `run-${randomUUID()}`;
    let approval: Approval | null = null;
    const run = await this.tx.run(async () => {
      const outcome = total > 0 ? await this.budget.check(total, new Date()) : ({ ok: true } as const);
      let row = await this.repo.insert(
        {
          id,
          status: outcome.ok ? 'ready' : 'awaiting_approval',
          fulfiller: namespace,
          fulfillerKind: kind,
          costIsEstimated: true,
          totalCostFen: total,
          lines,
          approvalId: null,
        },
      );
      if (!outcome.ok) {
        approval = await this.approvals.create(
          {
            kind: 'replenishment_run',
            subject: replenishmentRunSubject(id, total, outcome),
            summary: `replenishment run ${id} of ${lines.length} line(s), estimated ${total} fen, passes the ${outcome.limit} budget`,
          },
        );
        await this.repo.update(id, { approvalId: approval.id });
        row = { ...row, approvalId: approval.id };
      }
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${id} created: ${lines.length} line(s), estimated ${total} fen`,
        reasoning: outcome.ok
          ? `built from the current plan (${plan.totals.slotsToOrder} slot(s) below target); within budget`
          : `built from the current plan; it passes the ${outcome.limit} budget, so it waits for an owner approval`,
        data: { run_id: id, action: 'created', total_cost_fen: total, lines: lines.length, approval_id: approval?.id ?? null },
      });
      return row;
    });
    if (approval) {
      messages.push(
        message(
          'approval_required',
          'requires_buyer_review',
          `the run passes the budget; approval ${(approval as Approval).id} must be approved before it can be placed`,
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

  /**
   * An interrupted execution of a run's approval, read from the run (the service's own record): still awaiting
   * approval → the decision never took effect, so it is recorded now with the approval's outcome (a conditional
   * transition: at most once); any other state → it took effect.
   */
  private async recoverApproval(a: Approval, id: string, approved: boolean): Promise<ExecutionRead> {
    const run = await this.repo.find(id);
    if (!run) return { outcome: 'not_placed' };
    if (run.status === 'awaiting_approval') return { outcome: 'placed', record: () => this.onApproval(a, id, approved) };
    return { outcome: 'placed' };
  }

  /** A decision on the run: refused now unless it awaits approval; its effect is recorded with the approval's outcome. */
  private async approvalEffect(a: Approval, id: string, approved: boolean): Promise<RecordEffect> {
    const run = await this.repo.find(id);
    if (!run) throw Errors.notFound(`replenishment run ${id}`);
    if (run.status !== 'awaiting_approval') throw Errors.conflict('invalid_state', `run ${id} is ${run.status}, not awaiting approval`);
    return () => this.onApproval(a, id, approved);
  }

  private async onApproval(a: Approval, id: string, approved: boolean): Promise<void> {
    await this.tx.run(async () => {
      const moved = await this.repo.transition(id, 'awaiting_approval', approved ? 'ready' : 'rejected', {});
      if (!moved) {
        const run = await this.repo.find(id);
        if (!run) throw Errors.notFound(`replenishment run ${id}`);
        throw Errors.conflict('invalid_state', `run ${id} is ${run.status}, not awaiting approval`);
      }
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${id} ${approved ? 'approved: ready to place' : 'rejected: it will not be placed'}`,
        reasoning: `approval ${a.id} was ${approved ? 'approved' : 'rejected'}`,
        data: { run_id: id, action: approved ? 'approved' : 'rejected', approval_id: a.id },
      });
    });
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
