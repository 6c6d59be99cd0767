import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { Errors } from '../../../common/errors/errors';
import type { UcpMessage } from '../../../common/envelope/envelope';
import { EventsService } from '../../../events/events.service';
import { RunDelivery } from '../replenishment-run.entity';
import { RunDetailService } from '../run-detail.service';
import { closeRefusal, receiveRefusal, RunStatus } from '../run.rules';
import { RunStockService } from './run-stock.service';
import { allLinesClosed, closeOpenLines, receiptOf } from '../../plan/inventory-position.rules';
import { RunDetail } from '../run.types';
import { RunsRepository } from '../runs.repository';
import { Tx } from '../../../database/tx';
import { toPlus8 } from '../../../common/time';

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
   * The spec's receive: the listed lines' units go into their slots (capped at capacity, the rest to the depot up to
   * what the line ordered; beyond it nothing is booked and a warning says so, issue 37) and
   * the run is `delivered` in one call. Lines it does not list are closed with their whole quantity as shortfall, so
   * they leave on-order and the next plan orders them again. Line-by-line arrival is `arrive`.
   */
  async receive(id: string, delivered: { slot_id: string; quantity: number }[], note?: string): Promise<{ detail: RunDetail; messages: UcpMessage[] }> {
    let received: RunDelivery[] = [];
    let messages: UcpMessage[] = [];
    const view = await this.tx.run(async () => {
      const run = await this.openRun(id, delivered);
      const lines = new Map(run.lines.map((l) => [l.slot_id, l]));
      const raised = await this.stock.raiseStock(delivered.map((d) => ({ ...d, ordered: lines.get(d.slot_id)!.ordered_each })));
      const receivedAt = toPlus8(this.clock.now());
      const receipts = raised.map((r) => ({ ...r, ...receiptOf(r.slot_id, lines.get(r.slot_id)!.ordered_each, r.quantity), received_at: receivedAt }));
      messages = await this.stock.recordOverDelivery(id, receipts, '$.delivered', 'receipt');
      received = receipts;
      const before = run.delivered ?? [];
      const closing = closeOpenLines(run.lines, new Set([...before, ...receipts].map((d) => d.slot_id)));
      const all = [...before, ...receipts, ...closing.map((c) => ({ ...c, stock_before: null, stock_after: null }))];
      await this.repo.transition(id, 'placed', 'delivered', { deliveredAt: this.clock.now(), delivered: all, note: note ?? run.note });
      const short = receipts.filter((r) => r.shortfall > 0);
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${id} delivered: ${receipts.length} line(s) received` + (closing.length ? `, ${closing.length} line(s) not delivered closed` : ''),
        reasoning:
          'stock rose by what arrived, capped at each slot capacity when known (the rest went to the depot, never beyond what the line ordered); every line left on-order' +
          (short.length ? `; ${short.length} line(s) arrived short and are closed with their shortfall recorded` : '') +
          (closing.length ? '; lines the receipt did not list are closed with their whole quantity as shortfall, so the next plan orders them again' : ''),
        data: { run_id: id, action: 'delivered', delivered: receipts, closed_lines: closing.map((c) => ({ slot_id: c.slot_id, shortfall: c.shortfall })) },
      });
      return (await this.repo.find(id))!;
    });
    for (const l of this.receivedListeners) await l({ runId: id, delivered: received });
    return { detail: await this.details.detail(view), messages };
  }

  /**
   * Arrival at the warehouse, line by line: each listed line's units go into the depot under its slot's good (no
   * slot changes: goods reach a slot at a visit) and the line is closed, a short one with its shortfall. The arrival
   * time is the supplier's lead-time sample (order → arrival). Lines not listed stay on order; once every line is
   * closed the run is `delivered`.
   */
  async arrive(id: string, arrived: { slot_id: string; quantity: number }[], note?: string): Promise<RunDetail> {
    const view = await this.tx.run(async () => {
      const run = await this.openRun(id, arrived, '$.arrived');
      const lines = new Map(run.lines.map((l) => [l.slot_id, l]));
      const arrivedAt = toPlus8(this.clock.now());
      const receipts: RunDelivery[] = [];
      for (const [i, a] of arrived.entries()) {
        const line = lines.get(a.slot_id)!;
        // More than was ordered is not an arrival of this line: extra goods are a depot count, with its reason.
        if (a.quantity > line.ordered_each) throw Errors.invalid(`$.arrived[${i}].quantity`, `the line of slot ${a.slot_id} ordered ${line.ordered_each} unit(s); ${a.quantity} cannot arrive on it (count extra goods into the depot instead)`);
        await this.stock.toDepot(line.item.id, a.quantity);
        receipts.push({ ...receiptOf(a.slot_id, line.ordered_each, a.quantity), to_depot: a.quantity, arrived: true, received_at: arrivedAt, stock_before: null, stock_after: null });
      }
      const all = [...(run.delivered ?? []), ...receipts];
      const done = allLinesClosed(run.lines, new Set(all.map((d) => d.slot_id)));
      if (done) await this.repo.transition(id, 'placed', 'delivered', { deliveredAt: this.clock.now(), delivered: all, note: note ?? run.note });
      else await this.repo.update(id, { delivered: all, note: note ?? run.note });
      const units = receipts.reduce((t, r) => t + r.quantity, 0);
      const short = receipts.filter((r) => (r.shortfall ?? 0) > 0);
      await this.events.record({
        kind: 'replenishment.run',
        summary: `replenishment run ${id}: ${receipts.length} line(s) arrived at the warehouse, ${units} unit(s)` + (done ? '; every line closed, run delivered' : `; ${run.lines.length - all.length} still on order`),
        reasoning:
          'the units went into the depot (the warehouse) under each slot\'s good; they reach the slots at a visit' +
          (short.length ? `; ${short.length} line(s) arrived short and are closed with their shortfall recorded` : ''),
        data: { run_id: id, action: done ? 'delivered' : 'arrived', arrived: receipts },
      });
      return (await this.repo.find(id))!;
    });
    return this.details.detail(view);
  }

  /** The run locked for a receipt, with the listed slots checked: open lines of the run, each once. */
  private async openRun(id: string, listed: { slot_id: string }[], path = '$.delivered') {
    const run = await this.repo.findForUpdate(id);
    if (!run) throw Errors.notFound(`replenishment run ${id}`);
    const refusal = receiveRefusal(run.status as RunStatus);
    if (refusal) throw Errors.conflict(refusal.code, refusal.text);
    const lines = new Set(run.lines.map((l) => l.slot_id));
    const closed = new Set((run.delivered ?? []).map((d) => d.slot_id));
    const seen = new Set<string>();
    listed.forEach((d, i) => {
      const at = `${path}[${i}].slot_id`;
      if (!lines.has(d.slot_id)) throw Errors.invalid(at, `slot ${d.slot_id} is not a line of run ${id}`);
      if (seen.has(d.slot_id)) throw Errors.invalid(at, `slot ${d.slot_id} is listed twice`);
      if (closed.has(d.slot_id)) throw Errors.conflict('already_delivered', `the line of slot ${d.slot_id} was already received or closed`, at);
      seen.add(d.slot_id);
    });
    return run;
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
