import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { toPlus8 } from '../../../common/time';
import { Tx } from '../../../database/tx';
import { EventsService } from '../../../events/events.service';
import { RestockOrderEntity } from '../../../restock/restock-order.entity';
import { RestockFollowUpService } from '../../../restock/restock-follow-up.service';
import { RunFulfillers } from '../../fulfillers/run-fulfillers';
import { receiptOf } from '../../plan/inventory-position.rules';
import { runDeliveryFromOrders, runRestockOrders } from '../run.rules';
import { RunStockService } from './run-stock.service';
import { RunsRepository } from '../runs.repository';

/** Placed machine-restock runs checked for completion after each restock follow-up pass. */
const PLATFORM_DELIVERY_BATCH = 500;

/** Delivery of placed machine-restock runs by their machine platform, after each restock follow-up pass; stock rises. */
@Injectable()
export class RunPlatformDeliveryService implements OnModuleInit {
  constructor(
    private readonly repo: RunsRepository,
    private readonly events: EventsService,
    private readonly restockFollowUp: RestockFollowUpService,
    private readonly stock: RunStockService,
    private readonly tx: Tx,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.restockFollowUp.onFollowedUp(async () => {
      await this.deliverFromPlatform();
    });
  }

  /**
   * Delivers the placed machine-restock runs whose every binding order the platform reports completed (run after
   * each restock follow-up pass; a pass that failed is caught up by the next). A cancelled order leaves the run
   * placed: it is received by hand.
   */
  async deliverFromPlatform(): Promise<number> {
    let delivered = 0;
    for (const run of await this.repo.placedRunsOfKinds(RunFulfillers.kindsWith('deliveredByPlatform'), PLATFORM_DELIVERY_BATCH)) {
      const orders = runRestockOrders(run.id, run.lines);
      const rows = await this.repo.restockOrders(orders.map((o) => ({ namespace: o.namespace, reference: o.reference })));
      if (orders.length === 0 || rows.length !== orders.length || rows.some((r) => r.status !== 'completed')) continue;
      if (await this.deliverRun(run.id, rows)) delivered++;
    }
    return delivered;
  }

  private async deliverRun(id: string, orders: RestockOrderEntity[]): Promise<boolean> {
    const done = await this.tx.run(async () => {
      const run = await this.repo.findForUpdate(id);
      if (!run || run.status !== 'placed') return false; // received by hand meanwhile
      const delivered = runDeliveryFromOrders(
        run.lines,
        orders.map((o) => ({ location: o.locationId, lines: o.delivered ?? [] })),
      );
      const lines = new Map(run.lines.map((l) => [l.slot_id, l]));
      // Lines received by hand before the platform completed are not raised twice.
      const closed = new Set((run.delivered ?? []).map((d) => d.slot_id));
      const raised = await this.stock.raiseStock(delivered.filter((d) => !closed.has(d.slot_id)).map((d) => ({ ...d, ordered: lines.get(d.slot_id)?.ordered_each ?? d.quantity })));
      const deliveredAt = new Date(Math.max(...orders.map((o) => (o.completedAt ?? this.clock.now()).getTime())));
      const record = raised.map((r) => ({ ...r, ...receiptOf(r.slot_id, lines.get(r.slot_id)?.ordered_each ?? r.quantity, r.quantity), received_at: toPlus8(deliveredAt) }));
      await this.stock.recordOverDelivery(id, record, '$.delivered', 'platform');
      const refs = orders.map((o) => o.reference);
      await this.repo.transition(
        id,
        'placed',
        'delivered',
        { deliveredAt, delivered: [...(run.delivered ?? []), ...record], note: `delivered by the machine platform: restock order(s) ${refs.join(', ')} completed` },
      );
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${id} delivered by its machine platform: ${record.length} slot(s) restocked`,
        reasoning: `every binding restock order of the run (${refs.length}) was completed on GET /restock/{ref}; stock rose by what the platform delivered, capped at each slot capacity when known`,
        data: { run_id: id, action: 'delivered', source: 'platform', references: refs, delivered: record },
      });
      return true;
    });
    return done;
  }
}
