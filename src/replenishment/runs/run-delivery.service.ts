import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { Errors } from '../../common/errors';
import { EventsService } from '../../events/events.service';
import { RunDelivery } from './replenishment-run.entity';
import { RunDetailService } from './run-detail.service';
import { closeRefusal, receiveRefusal, RunStatus } from './run.rules';
import { RunStockService } from './run-stock.service';
import { allLinesClosed, closeOpenLines, receiptOf } from '../plan/inventory-position.rules';
import { RunDetail } from './run.types';
import { RunsRepository } from './runs.repository';
import { Tx } from '../../database/tx';
import { toPlus8 } from '../../common/time';

/** Told, after the commit, of the units a person received into slots (not of deliveries the platform made itself). */
export type ReceivedListener = (received: { runId: string; delivered: RunDelivery[] }) => Promise<void>;

/**
 * Delivery of placed runs by hand: received line by line, or closed when it will never arrive; stock rises
 * (RunStockService). What the machine platform delivers itself: RunPlatformDeliveryService.
 */
@Injectable()
export class RunDeliveryService {
  constructor(
    private readonly repo: RunsRepository,
    private readonly details: RunDetailService,
    private readonly events: EventsService,
    private readonly stock: RunStockService,
    private readonly tx: Tx,
    private readonly clock: Clock,
  ) {}

  private readonly receivedListeners: ReceivedListener[] = [];

  /** Staging's simulated machines put received goods on their own shelves (src/staging/simulated-deliveries.service.ts). */
  onReceived(listener: ReceivedListener): void {
    this.receivedListeners.push(listener);
  }

  /**
   * Receives lines of a placed run, line by line: each listed slot's stock rises by the units that arrived (each),
   * capped at its capacity when known, and the line is closed (a short delivery records its shortfall). Lines not
   * listed stay on order; once every line is closed the run is `delivered`. Slot ids must be open lines of the run.
   */
  async receive(id: string, delivered: { slot_id: string; quantity: number }[], note?: string): Promise<RunDetail> {
    let received: RunDelivery[] = [];
    const view = await this.tx.run(async () => {
      const run = await this.repo.findForUpdate(id);
      if (!run) throw Errors.notFound(`replenishment run ${id}`);
      const refusal = receiveRefusal(run.status as RunStatus);
      if (refusal) throw Errors.conflict(refusal.code, refusal.text);
      const lines = new Map(run.lines.map((l) => [l.slot_id, l]));
      const closed = new Set((run.delivered ?? []).map((d) => d.slot_id));
      const seen = new Set<string>();
      delivered.forEach((d, i) => {
        const path = `$.delivered[${i}].slot_id`;
        if (!lines.has(d.slot_id)) throw Errors.invalid(path, `slot ${d.slot_id} is not a line of run ${id}`);
        if (seen.has(d.slot_id)) throw Errors.invalid(path, `slot ${d.slot_id} is listed twice`);
        if (closed.has(d.slot_id)) throw Errors.conflict('already_delivered', `the line of slot ${d.slot_id} was already received or closed`, path);
        seen.add(d.slot_id);
      });
      const raised = await this.stock.raiseStock(delivered);
      // Each line's receipt time, on the service clock: the lead-time samples (placed → received) the plan learns from.
      const receivedAt = toPlus8(this.clock.now());
      const receipts = raised.map((r) => ({ ...r, ...receiptOf(r.slot_id, lines.get(r.slot_id)!.ordered_each, r.quantity), received_at: receivedAt }));
      received = receipts;
      const all = [...(run.delivered ?? []), ...receipts];
      const done = allLinesClosed(run.lines, new Set(all.map((d) => d.slot_id)));
      const short = receipts.filter((r) => r.shortfall > 0);
      if (done) await this.repo.transition(id, 'placed', 'delivered', { deliveredAt: this.clock.now(), delivered: all, note: note ?? run.note });
      else await this.repo.update(id, { delivered: all, note: note ?? run.note });
      await this.events.record({
        kind: 'replenishment.run',
        summary: done
          ? `replenishment run ${id} delivered: ${receipts.length} line(s) received, every line closed`
          : `replenishment run ${id}: ${receipts.length} line(s) received, ${run.lines.length - all.length} still on order`,
        reasoning:
          'stock rose by what arrived, capped at each slot capacity when known (the rest went to the depot); a received line leaves on-order' +
          (short.length ? `; ${short.length} line(s) arrived short and are closed with their shortfall recorded` : ''),
        data: { run_id: id, action: done ? 'delivered' : 'received', delivered: receipts },
      });
      return (await this.repo.find(id))!;
    });
    for (const l of this.receivedListeners) await l({ runId: id, delivered: received });
    return this.details.detail(view);
  }

  /**
   * Closes a placed run that will never arrive (entirely, or the lines still open): each open line is closed with
   * its whole quantity as shortfall, so its units leave on-order and the next plan orders them again if needed.
   */
  async close(id: string, reason: string, confirm?: unknown): Promise<RunDetail> {
    if (confirm !== true) throw Errors.confirmationRequired();
    const view = await this.tx.run(async () => {
      const run = await this.repo.findForUpdate(id);
      if (!run) throw Errors.notFound(`replenishment run ${id}`);
      const refusal = closeRefusal(run.status as RunStatus);
      if (refusal) throw Errors.conflict(refusal.code, refusal.text);
      const closing = closeOpenLines(run.lines, new Set((run.delivered ?? []).map((d) => d.slot_id)));
      const units = closing.reduce((t, l) => t + l.ordered_each, 0);
      // No delivered_at: a close is no delivery, and must not become a lead-time sample.
      await this.repo.transition(id, 'placed', 'closed', {
        delivered: [...(run.delivered ?? []), ...closing.map((c) => ({ ...c, stock_before: null, stock_after: null }))],
        note: reason,
      });
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${id} closed: ${closing.length} line(s), ${units} unit(s) will not arrive`,
        reasoning: `closed by an operator: ${reason}; its open lines left on-order, so the next plan counts them as missing`,
        data: { run_id: id, action: 'closed', reason, closed_lines: closing.map((c) => ({ slot_id: c.slot_id, shortfall: c.shortfall })) },
      });
      return (await this.repo.find(id))!;
    });
    return this.details.detail(view);
  }
}
