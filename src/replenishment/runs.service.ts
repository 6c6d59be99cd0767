import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ApprovalsService, ApprovalView } from '../approvals/approvals.service';
import { message, ok, UcpMessage, warning } from '../common/envelope';
import { DomainError, Errors } from '../common/errors';
import { toPlus8 } from '../common/time';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { EventsService } from '../events/events.service';
import { EventView } from '../events/event.view';
import { BudgetService } from '../guards/budget.service';
import { KillSwitchService } from '../guards/kill-switch.service';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { PartnerError, SupplyAdapter, SupplyOrderRequest } from '../partners/adapter.types';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { FulfillerKind } from '../forecasting/lead-time.service';
import { RestockOrderEntity } from '../restock/restock-order.entity';
import { RestockFollowUpService } from '../restock/restock-follow-up.service';
import { RestockService } from '../restock/restock.service';
import { PlanLine, PlanService } from './plan.service';
import { ReplenishmentRunEntity, RunDelivery, RunLine } from './replenishment-run.entity';
import {
  isRunStatus,
  machineRunRecovery,
  placeClaimExpired,
  placeLeaseMs,
  placeRecoveryOutcome,
  PlaceRecoveryOutcome,
  placeRefusal,
  receiveRefusal,
  runDeliveryFromOrders,
  RunRestockOrder,
  runRestockOrders,
  RunStatus,
  RUN_STATUSES,
  stockAfterDelivery,
} from './run.rules';
import { RunRestockOrderView, RunSummary, RunView, toRunSummary, toRunView } from './run.view';
import { RunsRepository } from './runs.repository';

export const REPLENISHMENT_CAPS = ['com.example.svc.replenishment'];
const SPEND_SOURCE = 'replenishment_run';
/** Placed machine-restock runs checked for completion after each restock follow-up pass. */
const PLATFORM_DELIVERY_BATCH = 500;

/** What one recovery pass did with the runs left in `placing` past their lease. */
export interface RunRecoveryPass {
  checked: number;
  placed: number;
  released: number;
  left: number;
}

function refusalError(r: { status: number; code: string; text: string }): DomainError {
  return Errors.conflict(r.code, r.text);
}

/**
 * Replenishment runs: built from the current plan, guarded by the budget (over it: a pending `replenishment_run`
 * approval), placed with the run's fulfiller under the kill switch, received into stock. Fulfillers: the simulated
 * supplier (one supply order, money held against the budget) or `machine_restock` (one binding restock order per
 * location to its machine platform through RestockService; no money moves; delivered when the platform completes
 * every order, or received by hand).
 */
@Injectable()
export class RunsService implements OnModuleInit {
  private readonly logger = new Logger(RunsService.name);
  private readonly leaseMs: number;
  constructor(
    private readonly repo: RunsRepository,
    private readonly plans: PlanService,
    private readonly registry: PartnerRegistry,
    private readonly killSwitch: KillSwitchService,
    private readonly budget: BudgetService,
    private readonly approvals: ApprovalsService,
    private readonly idempotency: IdempotencyService,
    private readonly events: EventsService,
    private readonly restock: RestockService,
    private readonly restockFollowUp: RestockFollowUpService,
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.leaseMs = placeLeaseMs(config.partnerTimeoutMs);
  }

  onModuleInit(): void {
    this.restockFollowUp.onFollowedUp(async () => {
      await this.deliverFromPlatform();
    });
    this.approvals.registerHandler('replenishment_run', {
      onApproved: (a, m) => this.onApproval(a, true, m),
      onRejected: (a, m) => this.onApproval(a, false, m),
    });
  }

  async create(opts: { fulfiller?: FulfillerKind; location?: string } = {}): Promise<RunView & { messages: UcpMessage[] }> {
    const kind: FulfillerKind = opts.fulfiller ?? 'simulated_supplier';
    const plan = await this.plans.compute(
      kind === 'simulated_supplier' ? { fulfiller: kind, requireCatalog: true, location: opts.location } : { fulfiller: kind, location: opts.location },
    );
    const wanted = plan.slots.filter((s) => s.quantity > 0);
    const carried = wanted.filter((s) => s.carried_by_fulfiller);
    let namespace: string;
    if (kind === 'machine_restock') {
      // Each location is ordered from its own machine platform: every one of them must take binding orders.
      const namespaces = machineNamespaces(carried.map(toRunLine));
      for (const ns of namespaces) this.registry.machine(ns, 'replenishment.order', '$.fulfiller');
      namespace = namespaces.join(',');
    } else {
      namespace = plan.fulfiller.namespace!;
    }
    const messages: UcpMessage[] = [...plan.messages];
    const dropped = wanted.length - carried.length;
    if (dropped > 0) {
      messages.push(
        warning('not_carried', `${dropped} slot(s) need stock but ${namespace} does not carry their goods; they are not in the run`, '$.lines'),
      );
    }
    if (carried.length === 0) messages.push(warning('nothing_to_order', 'the plan orders nothing now; the run has no lines', '$.lines'));
    const lines = carried.map(toRunLine);
    // A machine platform's restock order moves no money: nothing is held or spent against the budget.
    const total = kind === 'machine_restock' ? 0 : lines.reduce((t, l) => t + (l.cost_estimate_fen ?? 0), 0);
    const id = `run-${randomUUID()}`;

    const published: EventView[] = [];
    let approval: ApprovalView | null = null;
    const run = await this.ds.transaction(async (m) => {
      const outcome = total > 0 ? await this.budget.check(total, new Date(), m) : ({ ok: true } as const);
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
        m,
      );
      if (!outcome.ok) {
        approval = await this.approvals.create(
          {
            kind: 'replenishment_run',
            subject: { run_id: id, total_cost_fen: total, limit: outcome.limit, limit_fen: outcome.limitFen, spent_fen: outcome.spentFen },
            summary: `replenishment run ${id} of ${lines.length} line(s), estimated ${total} fen, passes the ${outcome.limit} budget`,
          },
          m,
        );
        await this.repo.update(id, { approvalId: approval.id }, m);
        row = { ...row, approvalId: approval.id };
      }
      published.push(
        await this.events.record(
          {
            kind: 'replenishment.run',
            summary: `replenishment run ${id} created: ${lines.length} line(s), estimated ${total} fen`,
            reasoning: outcome.ok
              ? `built from the current plan (${plan.totals.slots_to_order} slot(s) below target); within budget`
              : `built from the current plan; it passes the ${outcome.limit} budget, so it waits for an owner approval`,
            data: { run_id: id, action: 'created', total_cost_fen: total, lines: lines.length, approval_id: approval?.id ?? null },
          },
          m,
        ),
      );
      return row;
    });
    for (const e of published) await this.events.publish(e);
    if (approval) {
      messages.push(
        message(
          'approval_required',
          'requires_buyer_review',
          `the run passes the budget; approval ${(approval as ApprovalView).id} must be approved before it can be placed`,
          '$.status',
        ),
      );
    }
    return { ...(await this.view(run)), messages };
  }

  /** Newest first, at most 200, without their lines (GET /replenishment/runs/{id} has them). */
  async list(status?: string): Promise<RunSummary[]> {
    if (status !== undefined && !isRunStatus(status)) {
      throw Errors.invalid('$.status', `status must be one of ${RUN_STATUSES.join(', ')}`);
    }
    return (await this.repo.list({ status, limit: 200 })).map(toRunSummary);
  }

  async get(id: string): Promise<RunView> {
    const run = await this.repo.find(id);
    if (!run) throw Errors.notFound(`replenishment run ${id}`);
    return this.view((await this.recoverIfExpired(run)).run);
  }

  /** Place under an optional Idempotency-Key: the answer (status and body, envelope included) to send. */
  async placeWithKey(id: string, key: string | undefined, rawBody: string): Promise<{ status: number; body: unknown }> {
    return this.idempotency.run(key, { operation: 'replenishment.run.place', resourceId: id, rawBody }, async () => ({
      status: 200,
      body: ok({ ...(await this.place(id)) }, { capabilities: REPLENISHMENT_CAPS }),
    }));
  }

  /**
   * Places a ready run with its fulfiller. Kill switch first; the run is claimed (`placing`) and its amount held
   * against the budget in one transaction, so a concurrent second place gets 409 and calls nobody. Never retried:
   * a failure puts the run back to `ready` (the supplier's order ref is the run id, so a manual retry cannot
   * order twice).
   */
  async place(id: string): Promise<RunView> {
    const published: EventView[] = [];
    // A run left in `placing` past its lease is settled first (by reading the fulfiller): placed, or ready again.
    const current = await this.repo.find(id);
    if (current) await this.recoverIfExpired(current);
    const claim = await this.ds.transaction(async (m) => {
      await this.killSwitch.assertOff(m);
      const run = await this.repo.findForUpdate(id, m);
      if (!run) throw Errors.notFound(`replenishment run ${id}`);
      const refusal = placeRefusal(run.status as RunStatus);
      if (refusal) throw refusalError(refusal);
      if (run.lines.length === 0) throw Errors.conflict('nothing_to_order', 'the run has no lines to place');
      if (run.fulfillerKind === 'machine_restock') {
        // No budget: no money moves. The platforms must still take binding orders (the registry may have changed).
        for (const ns of machineNamespaces(run.lines)) this.registry.machine(ns, 'replenishment.order', '$.fulfiller');
        run.claimedAt = await this.repo.claimForPlacing(id, m);
        return { approval: null, run };
      }
      const total = run.totalCostFen ?? 0;
      // An approved run is placed whatever the budget says now (the owner approved passing it).
      const approved = run.approvalId !== null;
      const outcome = await this.budget.checkAndHold(total, SPEND_SOURCE, run.id, m, { ignoreLimits: approved });
      if (!outcome.ok && !approved) {
        const approval = await this.approvals.create(
          {
            kind: 'replenishment_run',
            subject: { run_id: id, total_cost_fen: total, limit: outcome.limit, limit_fen: outcome.limitFen, spent_fen: outcome.spentFen },
            summary: `replenishment run ${id}, estimated ${total} fen, now passes the ${outcome.limit} budget`,
          },
          m,
        );
        await this.repo.transition(id, 'ready', 'awaiting_approval', { approvalId: approval.id }, m);
        return { approval, run: null };
      }
      run.claimedAt = await this.repo.claimForPlacing(id, m);
      return { approval: null, run };
    });
    if (claim.approval) {
      throw Errors.conflict('approval_required', `the run now passes the budget; approval ${claim.approval.id} must be approved first`);
    }
    const run = claim.run!;
    if (run.fulfillerKind === 'machine_restock') return this.placeWithPlatforms(run);
    const adapter = this.supplier(run.fulfiller);
    const request: SupplyOrderRequest = { ref: run.id, lines: supplierLines(run.lines), fulfillment: { method: 'restock' } };
    let orderId: string;
    try {
      const ack = await adapter.createOrder(request);
      orderId = ack.orderId ?? ack.ref;
    } catch (err) {
      await this.placeFailed(run, err);
      throw err instanceof PartnerError
        ? err.kind === 'rejected'
          ? Errors.supplierRejected(err.reason)
          : Errors.upstreamUnreachable(run.fulfiller, err.reason)
        : err;
    }
    const placed = await this.ds.transaction(async (m) => {
      const patch = { placedAt: new Date(), supplierOrderId: orderId };
      // The claim may have outlived its lease and been settled meanwhile: an acceptance still counts (the order
      // exists) unless the run is already placed.
      const moved = (await this.repo.settleClaim(id, run.claimedAt, 'placed', patch, m)) || (await this.repo.transition(id, 'ready', 'placed', patch, m));
      if (!moved) return (await this.repo.find(id, m))!;
      await this.budget.recordSpend(run.totalCostFen ?? 0, SPEND_SOURCE, run.id, m);
      published.push(
        await this.events.record(
          {
            kind: 'replenishment.run',
            summary: `replenishment run ${id} placed with ${run.fulfiller} (order ${orderId})`,
            reasoning: `${run.lines.length} line(s), estimated ${run.totalCostFen ?? 0} fen; the kill switch was off and the budget allowed it`,
            data: { run_id: id, action: 'placed', fulfiller: run.fulfiller, supplier_order_id: orderId },
          },
          m,
        ),
      );
      return (await this.repo.find(id, m))!;
    });
    for (const e of published) await this.events.publish(e);
    return toRunView(placed);
  }

  /**
   * Receives a placed run: each delivered slot's stock rises by the units that arrived (each), capped at its
   * capacity when known. Slot ids must be lines of the run.
   */
  async receive(id: string, delivered: { slot_id: string; quantity: number }[], note?: string): Promise<RunView> {
    const published: EventView[] = [];
    const view = await this.ds.transaction(async (m) => {
      const run = await this.repo.findForUpdate(id, m);
      if (!run) throw Errors.notFound(`replenishment run ${id}`);
      const refusal = receiveRefusal(run.status as RunStatus);
      if (refusal) throw refusalError(refusal);
      const inRun = new Set(run.lines.map((l) => l.slot_id));
      const seen = new Set<string>();
      delivered.forEach((d, i) => {
        if (!inRun.has(d.slot_id)) throw Errors.invalid(`$.delivered[${i}].slot_id`, `slot ${d.slot_id} is not a line of run ${id}`);
        if (seen.has(d.slot_id)) throw Errors.invalid(`$.delivered[${i}].slot_id`, `slot ${d.slot_id} is listed twice`);
        seen.add(d.slot_id);
      });
      const record = await this.raiseStock(delivered, m);
      await this.repo.transition(id, 'placed', 'delivered', { deliveredAt: new Date(), delivered: record, note: note ?? null }, m);
      published.push(
        await this.events.record(
          {
            kind: 'replenishment.run',
            summary: `replenishment run ${id} delivered: ${record.length} slot(s) restocked`,
            reasoning: 'stock rose by what arrived, capped at each slot capacity when known',
            data: { run_id: id, action: 'delivered', delivered: record },
          },
          m,
        ),
      );
      return (await this.repo.find(id, m))!;
    });
    for (const e of published) await this.events.publish(e);
    return this.view(view);
  }

  /**
   * Delivers the placed machine-restock runs whose every binding order the platform reports completed (run after
   * each restock follow-up pass; a pass that failed is caught up by the next). A cancelled order leaves the run
   * placed: it is received by hand.
   */
  async deliverFromPlatform(): Promise<number> {
    let delivered = 0;
    for (const run of await this.repo.placedMachineRuns(PLATFORM_DELIVERY_BATCH)) {
      const orders = runRestockOrders(run.id, run.lines);
      const rows = await this.repo.restockOrders(orders.map((o) => ({ namespace: o.namespace, reference: o.reference })));
      if (orders.length === 0 || rows.length !== orders.length || rows.some((r) => r.status !== 'completed')) continue;
      if (await this.deliverRun(run.id, rows)) delivered++;
    }
    return delivered;
  }

  private async deliverRun(id: string, orders: RestockOrderEntity[]): Promise<boolean> {
    const published: EventView[] = [];
    const done = await this.ds.transaction(async (m) => {
      const run = await this.repo.findForUpdate(id, m);
      if (!run || run.status !== 'placed') return false; // received by hand meanwhile
      const delivered = runDeliveryFromOrders(
        run.lines,
        orders.map((o) => ({ location: o.locationId, lines: o.delivered ?? [] })),
      );
      const record = await this.raiseStock(delivered, m);
      const deliveredAt = new Date(Math.max(...orders.map((o) => (o.completedAt ?? new Date()).getTime())));
      const refs = orders.map((o) => o.reference);
      await this.repo.transition(
        id,
        'placed',
        'delivered',
        { deliveredAt, delivered: record, note: `delivered by the machine platform: restock order(s) ${refs.join(', ')} completed` },
        m,
      );
      published.push(
        await this.events.record(
          {
            kind: 'replenishment.run',
            summary: `replenishment run ${id} delivered by its machine platform: ${record.length} slot(s) restocked`,
            reasoning: `every binding restock order of the run (${refs.length}) was completed on GET /restock/{ref}; stock rose by what the platform delivered, capped at each slot capacity when known`,
            data: { run_id: id, action: 'delivered', source: 'platform', references: refs, delivered: record },
          },
          m,
        ),
      );
      return true;
    });
    for (const e of published) await this.events.publish(e);
    return done;
  }

  /** Raises each delivered slot's stock (each), capped at its capacity when known; the record of what changed. */
  private async raiseStock(delivered: { slot_id: string; quantity: number }[], m: EntityManager): Promise<RunDelivery[]> {
    const slots = new Map((await this.repo.slotsForUpdate([...new Set(delivered.map((d) => d.slot_id))], m)).map((s) => [s.id, s]));
    const record: RunDelivery[] = [];
    for (const d of delivered) {
      const slot = slots.get(d.slot_id);
      if (!slot) {
        record.push({ slot_id: d.slot_id, quantity: d.quantity, stock_before: null, stock_after: null });
        continue;
      }
      const after = stockAfterDelivery(slot.stock, d.quantity, slot.capacity);
      await this.repo.setSlotStock(slot.id, after, m);
      record.push({ slot_id: d.slot_id, quantity: d.quantity, stock_before: slot.stock, stock_after: after });
    }
    return record;
  }

  /**
   * Places a claimed machine-restock run: one binding restock order per location through RestockService, whose
   * reference (`<run id>.<location>`) is idempotent, so a retry after a partial failure replays the locations the
   * platforms already accepted without calling them and sends only the rest. A failure puts the run back to `ready`.
   */
  private async placeWithPlatforms(run: ReplenishmentRunEntity): Promise<RunView> {
    const orders = runRestockOrders(run.id, run.lines);
    let sent = 0;
    for (const o of orders) {
      try {
        await this.restock.send(o.location, { reference: o.reference, binding: true, line_items: o.line_items });
        sent++;
        // Each platform call gets its own lease: a run of many locations is not taken for an interrupted one.
        if (sent < orders.length) run.claimedAt = (await this.repo.renewClaim(run.id, run.claimedAt)) ?? run.claimedAt;
      } catch (err) {
        await this.platformPlaceFailed(run, o, sent, orders.length, err);
        throw err;
      }
    }
    const published: EventView[] = [];
    const placed = await this.ds.transaction(async (m) => {
      const patch = { placedAt: new Date(), supplierOrderId: null };
      const moved =
        (await this.repo.settleClaim(run.id, run.claimedAt, 'placed', patch, m)) || (await this.repo.transition(run.id, 'ready', 'placed', patch, m));
      if (!moved) return (await this.repo.find(run.id, m))!;
      published.push(
        await this.events.record(
          {
            kind: 'replenishment.run',
            summary: `replenishment run ${run.id} placed as ${orders.length} binding restock order(s) with ${run.fulfiller}`,
            reasoning: `${run.lines.length} line(s) in each-units, one order per location; the kill switch was off; no money moves`,
            data: { run_id: run.id, action: 'placed', fulfiller: run.fulfiller, references: orders.map((o) => o.reference) },
          },
          m,
        ),
      );
      return (await this.repo.find(run.id, m))!;
    });
    for (const e of published) await this.events.publish(e);
    return this.view(placed);
  }

  private async platformPlaceFailed(run: ReplenishmentRunEntity, order: RunRestockOrder, sent: number, total: number, err: unknown): Promise<void> {
    try {
      if (!(await this.repo.settleClaim(run.id, run.claimedAt, 'ready'))) return; // settled by recovery meanwhile
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${run.id} not placed: the restock order ${order.reference} to ${order.namespace} failed`,
        reasoning: `${(err as Error).message}; ${sent} of ${total} location(s) were accepted before it and are not sent again on a retry; the run is ready again and is not retried automatically`,
        location: order.location,
        data: { run_id: run.id, action: 'place_failed', fulfiller: run.fulfiller, reference: order.reference, accepted_before: sent },
      });
    } catch (e) {
      this.logger.error(`run ${run.id}: could not record the failed placement: ${(e as Error).message}`);
    }
  }

  /** The run's view; a machine-restock run also shows its restock orders (one per location) and their state. */
  private async view(run: ReplenishmentRunEntity): Promise<RunView> {
    if (run.fulfillerKind !== 'machine_restock') return toRunView(run);
    const orders = runRestockOrders(run.id, run.lines);
    const rows = await this.repo.restockOrders(orders.map((o) => ({ namespace: o.namespace, reference: o.reference })));
    const byRef = new Map(rows.map((r) => [`${r.namespace}\u0000${r.reference}`, r]));
    const views: RunRestockOrderView[] = orders.map((o) => {
      const r = byRef.get(`${o.namespace}\u0000${o.reference}`);
      return {
        location: o.location,
        namespace: o.namespace,
        reference: o.reference,
        status: r?.status ?? 'not_sent',
        external_ref: r?.externalRef ?? null,
        sent_at: r?.sentAt ?? null,
        completed_at: r?.completedAt ?? null,
        delivered: r?.delivered ?? null,
      };
    });
    return toRunView(run, views);
  }

  private supplier(namespace: string): SupplyAdapter {
    const sim = this.registry.simulatedSupplier;
    return namespace === sim.namespace ? sim : this.registry.supply(namespace, 'orders');
  }

  private async placeFailed(run: ReplenishmentRunEntity, err: unknown): Promise<void> {
    const rejected = err instanceof PartnerError && err.kind === 'rejected';
    try {
      const moved = await this.ds.transaction(async (m) => {
        // Settled by recovery meanwhile (the claim outlived its lease): this late failure changes nothing.
        if (!(await this.repo.settleClaim(run.id, run.claimedAt, 'ready', {}, m))) return false;
        // Refused: nothing spent. Unreachable: the order may exist, the amount stays counted as uncertain.
        if (rejected) await this.budget.release(SPEND_SOURCE, run.id, m);
        else await this.budget.markUncertain(SPEND_SOURCE, run.id, m);
        return true;
      });
      if (!moved) return;
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${run.id} not placed: ${run.fulfiller} ${rejected ? 'refused the order' : 'could not be reached'}`,
        reasoning: `${(err as Error).message}; the run is ready again and is not retried automatically`,
        data: { run_id: run.id, action: 'place_failed', fulfiller: run.fulfiller },
      });
    } catch (e) {
      this.logger.error(`run ${run.id}: could not record the failed placement: ${(e as Error).message}`);
    }
  }

  // ---- recovery of interrupted places ----

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
   * Simulated (or any) supplier: `GET /orders/{run id}` → found: `placed`, spend recorded (idempotent upsert);
   * refused (ref unknown): `ready`, held amount released; no usable answer: left. Machine restock: the run's stored
   * restock orders decide (an order still `sending` is first settled by reading its platform's `GET /restock/{ref}`):
   * all accepted → `placed` here (nothing left to send); otherwise `ready`, and the retry replays the accepted ones.
   * Not under the kill switch: it only reads.
   */
  private async recover(stuck: ReplenishmentRunEntity): Promise<{ run: ReplenishmentRunEntity; outcome: PlaceRecoveryOutcome | 'moved' }> {
    const machine = stuck.fulfillerKind === 'machine_restock';
    let outcome: PlaceRecoveryOutcome;
    let why: string;
    let supplierOrderId: string | null = null;
    if (machine) {
      const orders = runRestockOrders(stuck.id, stuck.lines);
      const keys = orders.map((o) => ({ namespace: o.namespace, reference: o.reference }));
      for (const r of await this.repo.restockOrders(keys)) {
        if (r.status !== 'sending') continue;
        await this.restock.settleInterrupted(r.namespace, r.reference).catch((e: Error) => {
          this.logger.warn(`run ${stuck.id}: restock ${r.reference} not settled: ${e.message}`);
        });
      }
      const rows = new Map((await this.repo.restockOrders(keys)).map((r) => [`${r.namespace}\u0000${r.reference}`, r.status]));
      const statuses = orders.map((o) => rows.get(`${o.namespace}\u0000${o.reference}`) ?? null);
      outcome = machineRunRecovery(statuses);
      why = `its restock orders are ${orders.map((o, i) => `${o.reference}: ${statuses[i] ?? 'not sent'}`).join(', ')}`;
    } else {
      try {
        const status = await this.supplier(stuck.fulfiller).getOrder(stuck.id);
        outcome = placeRecoveryOutcome({ found: true });
        supplierOrderId = status.ref;
        why = `GET /orders/${stuck.id} shows the order (state ${status.state})`;
      } catch (err) {
        const kind = err instanceof PartnerError ? err.kind : 'other';
        outcome = placeRecoveryOutcome({ failed: kind });
        why = `GET /orders/${stuck.id} answered: ${(err as Error).message}`;
      }
    }
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

  private async onApproval(a: ApprovalView, approved: boolean, m?: EntityManager): Promise<void> {
    const id = typeof a.subject.run_id === 'string' ? a.subject.run_id : '';
    const moved = await this.repo.transition(id, 'awaiting_approval', approved ? 'ready' : 'rejected', {}, m);
    if (!moved) {
      const run = await this.repo.find(id, m);
      if (!run) throw Errors.notFound(`replenishment run ${id}`);
      throw Errors.conflict('invalid_state', `run ${id} is ${run.status}, not awaiting approval`);
    }
    await this.events.record(
      {
        kind: 'replenishment.run',
        summary: `replenishment run ${id} ${approved ? 'approved: ready to place' : 'rejected: it will not be placed'}`,
        reasoning: `approval ${a.id} was ${approved ? 'approved' : 'rejected'}`,
        data: { run_id: id, action: approved ? 'approved' : 'rejected', approval_id: a.id },
      },
      m,
    );
  }
}

function toRunLine(s: PlanLine): RunLine {
  return {
    slot_id: s.slot_id,
    location: s.location,
    item: s.item,
    vendor_sku: s.vendor_sku,
    title: s.title,
    unit: s.unit,
    contains: s.contains,
    quantity: s.quantity,
    quantity_each: s.quantity_each,
    ordered_each: s.ordered_each,
    unit_price_fen: s.unit_price?.amount ?? null,
    cost_estimate_fen: s.cost_estimate?.amount ?? null,
    stock: s.stock,
    capacity: s.capacity,
    target: s.target,
  };
}

/** The machine platforms a run's lines are ordered from (one per location). */
function machineNamespaces(lines: RunLine[]): string[] {
  return [...new Set(runRestockOrders('', lines).map((o) => o.namespace))].sort();
}

/** One supplier line per good and unit (several machines may need the same good). */
function supplierLines(lines: RunLine[]): SupplyOrderRequest['lines'] {
  const byKey = new Map<string, SupplyOrderRequest['lines'][number]>();
  for (const l of lines) {
    const unit = l.unit === 'BX' ? 'pack' : 'each';
    const key = `${l.vendor_sku}\u0000${unit}`;
    const cur = byKey.get(key);
    if (cur) cur.quantity += l.quantity;
    else byKey.set(key, { vendorSku: l.vendor_sku, quantity: l.quantity, unit });
  }
  return [...byKey.values()];
}
