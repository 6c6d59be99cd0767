import { Injectable, Logger } from '@nestjs/common';
import { PartnerRegistry } from '../../partners/registry/partner-registry';
import { RestockService } from '../../restock/restock.service';
import { FULFILLER_KIND } from '../fulfiller-kind';
import { ReplenishmentRunEntity, RunLine } from '../runs/replenishment-run.entity';
import { ClaimBudgetOutcome, FulfillerRead, FulfillerRunDraft, FulfillerTraits, PlacementOutcome, RunFulfiller, RunLease, sendInOrder } from './run-fulfiller';
import { capAtCapacity, machineNamespaces, machineRunRecovery, RunRestockOrder, runRestockOrders } from '../runs/run.rules';
import { RunPartnerOrders, RunRestockOrderState } from '../runs/run.types';
import { RunsRepository } from '../runs/runs.repository';

/**
 * The `machine_restock` fulfiller: one binding restock order per location to its machine platform through
 * RestockService; no money moves. Placed when every location's platform accepted.
 */
@Injectable()
export class MachineRestockRunFulfiller implements RunFulfiller {
  static readonly kind = FULFILLER_KIND.machineRestock;
  static readonly traits: FulfillerTraits = {
    sourcing: 'machine_platform',
    leadSamples: { from: 'restock_orders_by_platform' },
    needsConfirm: false,
    manyNamespaces: true,
    buysThroughPurchaseOrders: false,
    deliveredByPlatform: true,
  };
  readonly kind = MachineRestockRunFulfiller.kind;
  readonly traits = MachineRestockRunFulfiller.traits;
  private readonly logger = new Logger(MachineRestockRunFulfiller.name);
  constructor(
    private readonly repo: RunsRepository,
    private readonly registry: PartnerRegistry,
    private readonly restock: RestockService,
  ) {}

  /** Each location is ordered from its own machine platform: every one of them must take binding orders. */
  draft(carried: RunLine[]): FulfillerRunDraft {
    const namespaces = machineNamespaces(carried);
    this.checkPlatforms(namespaces);
    // A machine platform's restock order moves no money: nothing is held or spent against the budget.
    // A binding order fits its slot's room when emptied (issue 37): a line never asks past the slot's capacity.
    return { namespace: namespaces.join(','), lines: capAtCapacity(carried), totalFen: 0 };
  }

  /** The platforms must still take binding orders (the registry may have changed since the run was built). */
  checkClaim(run: ReplenishmentRunEntity): void {
    this.checkPlatforms(machineNamespaces(run.lines));
  }

  /** No budget: no money moves. */
  claimBudget(): Promise<ClaimBudgetOutcome> {
    return Promise.resolve({ ok: true });
  }

  /** No money to settle; the stored restock orders decided. */
  recovered(_run: ReplenishmentRunEntity, placed: boolean): Promise<string> {
    return Promise.resolve(
      placed
        ? 'every location was accepted, so the run is placed; nothing was sent again'
        : 'placing it again replays the accepted locations and sends only the rest',
    );
  }

  /** One binding restock order per location, with its state as stored (`not_sent` before the first place). */
  async partnerOrders(run: ReplenishmentRunEntity): Promise<RunPartnerOrders> {
    const orders = runRestockOrders(run.id, run.lines);
    const rows = await this.repo.restockOrders(orders.map((o) => ({ namespace: o.namespace, reference: o.reference })));
    const byRef = new Map(rows.map((r) => [`${r.namespace}\u0000${r.reference}`, r]));
    const restockOrders: RunRestockOrderState[] = orders.map((o) => {
      const r = byRef.get(`${o.namespace}\u0000${o.reference}`);
      return {
        location: o.location,
        namespace: o.namespace,
        reference: o.reference,
        status: r?.status ?? 'not_sent',
        externalRef: r?.externalRef ?? null,
        sentAt: r?.sentAt ?? null,
        completedAt: r?.completedAt ?? null,
        delivered: r?.delivered ?? null,
      };
    });
    return { restockOrders };
  }

  private checkPlatforms(namespaces: string[]): void {
    for (const ns of namespaces) this.registry.machine(ns, 'replenishment.order', '$.fulfiller');
  }

  /**
   * Places a claimed machine-restock run: one binding restock order per location through RestockService, whose
   * reference (`<run id>.<location>`) is idempotent, so a retry after a partial failure replays the locations the
   * platforms already accepted without calling them and sends only the rest. A failure puts the run back to `ready`.
   */
  async place(run: ReplenishmentRunEntity, lease: RunLease): Promise<PlacementOutcome> {
    const orders = runRestockOrders(run.id, run.lines);
    const send = (o: RunRestockOrder) => this.restock.send(o.location, { reference: o.reference, binding: true, line_items: o.line_items });
    const { accepted, failed } = await sendInOrder(orders, async (o) => void (await send(o)), lease);
    if (failed) {
      const { part: order, error } = failed;
      return {
        placed: false,
        error,
        claim: 'release',
        hold: 'none',
        unavailable: [],
        event: {
          summary: `replenishment run ${run.id} not placed: the restock order ${order.reference} to ${order.namespace} failed`,
          reasoning: `${(error as Error).message}; ${accepted} of ${orders.length} location(s) were accepted before it and are not sent again on a retry; the run is ready again and is not retried automatically`,
          location: order.location,
          data: { run_id: run.id, action: 'place_failed', fulfiller: run.fulfiller, reference: order.reference, accepted_before: accepted },
        },
      };
    }
    return {
      placed: true,
      supplierOrderId: null,
      hold: 'none',
      event: {
        summary: `replenishment run ${run.id} placed as ${orders.length} binding restock order(s) with ${run.fulfiller}`,
        reasoning: `${run.lines.length} line(s) in each-units, one order per location; the kill switch was off; no money moves`,
        data: { run_id: run.id, action: 'placed', fulfiller: run.fulfiller, references: orders.map((o) => o.reference) },
      },
    };
  }

  /**
   * The run's stored restock orders decide (an order still `sending` is first settled by reading its platform's
   * `GET /restock/{ref}`): all accepted → `placed` (nothing left to send); otherwise `not_placed`, and the retry
   * replays the accepted ones.
   */
  async read(stuck: ReplenishmentRunEntity): Promise<FulfillerRead> {
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
    const outcome = machineRunRecovery(statuses);
    const why = `its restock orders are ${orders.map((o, i) => `${o.reference}: ${statuses[i] ?? 'not sent'}`).join(', ')}`;
    return { outcome, why, supplierOrderId: null };
  }
}
