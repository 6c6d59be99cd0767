import { Injectable } from '@nestjs/common';
import { ReplenishmentRunEntity } from './replenishment-run.entity';
import { runRestockOrders } from './run.rules';
import { RunRestockOrderView, RunView, toRunView } from './run.view';
import { RunsRepository } from './runs.repository';
import { SupplyCheckoutRunFulfiller } from './supply-checkout-run.fulfiller';

/**
 * The run's view; a machine-restock run also shows its restock orders (one per location) and their state, a
 * supply-checkout run its purchase orders (one per supplier).
 */
@Injectable()
export class RunViewService {
  constructor(
    private readonly repo: RunsRepository,
    private readonly supplyCheckout: SupplyCheckoutRunFulfiller,
  ) {}

  async view(run: ReplenishmentRunEntity): Promise<RunView> {
    if (run.fulfillerKind === 'supply_checkout') return toRunView(run, undefined, await this.supplyCheckout.purchaseOrders(run));
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
}
