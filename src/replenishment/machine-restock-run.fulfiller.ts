import { Injectable, Logger } from '@nestjs/common';
import { EventsService } from '../events/events.service';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { RestockService } from '../restock/restock.service';
import { ReplenishmentRunEntity } from './replenishment-run.entity';
import { FulfillerRead, RunFulfiller } from './run-fulfiller';
import { machineNamespaces, machineRunRecovery, RunRestockOrder, runRestockOrders } from './run.rules';
import { RunsRepository } from './runs.repository';
import { Tx } from '../database/tx';

/**
 * The `machine_restock` fulfiller: one binding restock order per location to its machine platform through
 * RestockService; no money moves. Placed when every location's platform accepted.
 */
@Injectable()
export class MachineRestockRunFulfiller implements RunFulfiller {
  readonly movesMoney = false;
  private readonly logger = new Logger(MachineRestockRunFulfiller.name);
  constructor(
    private readonly repo: RunsRepository,
    private readonly registry: PartnerRegistry,
    private readonly restock: RestockService,
    private readonly events: EventsService,
    private readonly tx: Tx,
  ) {}

  /** No budget: no money moves. The platforms must still take binding orders (the registry may have changed). */
  checkClaim(run: ReplenishmentRunEntity): void {
    for (const ns of machineNamespaces(run.lines)) this.registry.machine(ns, 'replenishment.order', '$.fulfiller');
  }

  /**
   * Places a claimed machine-restock run: one binding restock order per location through RestockService, whose
   * reference (`<run id>.<location>`) is idempotent, so a retry after a partial failure replays the locations the
   * platforms already accepted without calling them and sends only the rest. A failure puts the run back to `ready`.
   */
  async place(run: ReplenishmentRunEntity): Promise<ReplenishmentRunEntity> {
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
    const placed = await this.tx.run(async () => {
      const patch = { placedAt: new Date(), supplierOrderId: null };
      const moved =
        (await this.repo.settleClaim(run.id, run.claimedAt, 'placed', patch)) || (await this.repo.transition(run.id, 'ready', 'placed', patch));
      if (!moved) return (await this.repo.find(run.id))!;
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${run.id} placed as ${orders.length} binding restock order(s) with ${run.fulfiller}`,
        reasoning: `${run.lines.length} line(s) in each-units, one order per location; the kill switch was off; no money moves`,
        data: { run_id: run.id, action: 'placed', fulfiller: run.fulfiller, references: orders.map((o) => o.reference) },
      });
      return (await this.repo.find(run.id))!;
    });
    return placed;
  }

  private async platformPlaceFailed(run: ReplenishmentRunEntity, order: RunRestockOrder, sent: number, total: number, err: unknown): Promise<void> {
    try {
      await this.tx.run(async () => {
        if (!(await this.repo.settleClaim(run.id, run.claimedAt, 'ready'))) return; // settled by recovery meanwhile
        await this.events.record({
          kind: 'replenishment.run',
          summary: `replenishment run ${run.id} not placed: the restock order ${order.reference} to ${order.namespace} failed`,
          reasoning: `${(err as Error).message}; ${sent} of ${total} location(s) were accepted before it and are not sent again on a retry; the run is ready again and is not retried automatically`,
          location: order.location,
          data: { run_id: run.id, action: 'place_failed', fulfiller: run.fulfiller, reference: order.reference, accepted_before: sent },
        });
      });
    } catch (e) {
      this.logger.error(`run ${run.id}: could not record the failed placement: ${(e as Error).message}`);
    }
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
