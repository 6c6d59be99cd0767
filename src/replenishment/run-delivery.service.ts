import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/clock';
import { Errors } from '../common/errors';
import { EventsService } from '../events/events.service';
import { RestockOrderEntity } from '../restock/restock-order.entity';
import { RestockFollowUpService } from '../restock/restock-follow-up.service';
import { RunDelivery } from './replenishment-run.entity';
import { RunViewService } from './run-view.service';
import { receiveRefusal, runDeliveryFromOrders, runRestockOrders, RunStatus, stockAfterDelivery } from './run.rules';
import { RunView } from './run.view';
import { RunsRepository } from './runs.repository';
import { Tx } from '../database/tx';

/** Placed machine-restock runs checked for completion after each restock follow-up pass. */
const PLATFORM_DELIVERY_BATCH = 500;

/** Told, after the commit, of the units a person received into slots (not of deliveries the platform made itself). */
export type ReceivedListener = (received: { runId: string; delivered: RunDelivery[] }) => Promise<void>;

/** Delivery of placed runs: received by hand, or delivered by the machine platform; stock rises. */
@Injectable()
export class RunDeliveryService implements OnModuleInit {
  constructor(
    private readonly repo: RunsRepository,
    private readonly views: RunViewService,
    private readonly events: EventsService,
    private readonly restockFollowUp: RestockFollowUpService,
    private readonly tx: Tx,
    private readonly clock: Clock,
  ) {}

  private readonly receivedListeners: ReceivedListener[] = [];

  /** Staging's simulated machines put received goods on their own shelves (src/staging/simulated-deliveries.service.ts). */
  onReceived(listener: ReceivedListener): void {
    this.receivedListeners.push(listener);
  }

  onModuleInit(): void {
    this.restockFollowUp.onFollowedUp(async () => {
      await this.deliverFromPlatform();
    });
  }

  /**
   * Receives a placed run: each delivered slot's stock rises by the units that arrived (each), capped at its
   * capacity when known. Slot ids must be lines of the run.
   */
  async receive(id: string, delivered: { slot_id: string; quantity: number }[], note?: string): Promise<RunView> {
    const view = await this.tx.run(async () => {
      const run = await this.repo.findForUpdate(id);
      if (!run) throw Errors.notFound(`replenishment run ${id}`);
      const refusal = receiveRefusal(run.status as RunStatus);
      if (refusal) throw Errors.conflict(refusal.code, refusal.text);
      const inRun = new Set(run.lines.map((l) => l.slot_id));
      const seen = new Set<string>();
      delivered.forEach((d, i) => {
        if (!inRun.has(d.slot_id)) throw Errors.invalid(`$.delivered[${i}].slot_id`, `slot ${d.slot_id} is not a line of run ${id}`);
        if (seen.has(d.slot_id)) throw Errors.invalid(`$.delivered[${i}].slot_id`, `slot ${d.slot_id} is listed twice`);
        seen.add(d.slot_id);
      });
      const record = await this.raiseStock(delivered);
      await this.repo.transition(id, 'placed', 'delivered', { deliveredAt: this.clock.now(), delivered: record, note: note ?? null });
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${id} delivered: ${record.length} slot(s) restocked`,
        reasoning: 'stock rose by what arrived, capped at each slot capacity when known',
        data: { run_id: id, action: 'delivered', delivered: record },
      });
      return (await this.repo.find(id))!;
    });
    for (const l of this.receivedListeners) await l({ runId: id, delivered: view.delivered ?? [] });
    return this.views.view(view);
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
    const done = await this.tx.run(async () => {
      const run = await this.repo.findForUpdate(id);
      if (!run || run.status !== 'placed') return false; // received by hand meanwhile
      const delivered = runDeliveryFromOrders(
        run.lines,
        orders.map((o) => ({ location: o.locationId, lines: o.delivered ?? [] })),
      );
      const record = await this.raiseStock(delivered);
      const deliveredAt = new Date(Math.max(...orders.map((o) => (o.completedAt ?? this.clock.now()).getTime())));
      const refs = orders.map((o) => o.reference);
      await this.repo.transition(
        id,
        'placed',
        'delivered',
        { deliveredAt, delivered: record, note: `delivered by the machine platform: restock order(s) ${refs.join(', ')} completed` },
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

  /** Raises each delivered slot's stock (each), capped at its capacity when known; the record of what changed. */
  private async raiseStock(delivered: { slot_id: string; quantity: number }[]): Promise<RunDelivery[]> {
    const slots = new Map((await this.repo.slotsForUpdate([...new Set(delivered.map((d) => d.slot_id))])).map((s) => [s.id, s]));
    const record: RunDelivery[] = [];
    for (const d of delivered) {
      const slot = slots.get(d.slot_id);
      if (!slot) {
        record.push({ slot_id: d.slot_id, quantity: d.quantity, stock_before: null, stock_after: null });
        continue;
      }
      const after = stockAfterDelivery(slot.stock, d.quantity, slot.capacity);
      await this.repo.setSlotStock(slot.id, after);
      record.push({ slot_id: d.slot_id, quantity: d.quantity, stock_before: slot.stock, stock_after: after });
    }
    return record;
  }
}
