import { Injectable } from '@nestjs/common';
import { message, UcpMessage } from '../common/envelope/envelope';
import { PriceChangeApprovalSubject } from '../approvals/approval-subjects';
import { ApprovalsService, Approval } from '../approvals/approvals.service';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { MachineAdapter } from '../partners/adapter.types';
import { setPricesOnPlatform } from './platform-prices';
import { Move } from './price-moves.service';
import { PriceSlotsRepository } from './price-slots.repository';
import { PendingPrice, PriceChanged } from './price-update';

/** A line parked for an owner: what it waits on and how to read it. */
const pendingOf = (a: Approval, m: Move, base: string): PendingPrice => ({
  itemId: m.itemId,
  approvalId: a.id,
  approvalUrl: `${base}/ucp/v1/approvals/${a.id}`,
  previousFen: m.currentFen,
  priceFen: m.newFen,
});

/** What the parked lines answer: their messages, and the pending lines (each with where an owner approves it). */
export interface Parked {
  messages: UcpMessage[];
  pending: PendingPrice[];
}

/**
 * What a price request changes: the moves within the cap sent to the platform in one call and stored with their
 * event; each move over it parked as one `price_change` approval (the slot locked); a locked slot's pending one named;
 * and what an approval's execution made or did not make (PriceApprovalHandler).
 */
@Injectable()
export class PriceChangesService {
  constructor(
    private readonly tx: Tx,
    private readonly slots: PriceSlotsRepository,
    private readonly approvals: ApprovalsService,
    private readonly events: EventsService,
  ) {}

  /** The moves within the cap: one platform call, then the stored prices and their event in one transaction. */
  async apply(adapter: MachineAdapter, locationId: string, within: Move[], now: Date): Promise<PriceChanged[]> {
    const result = await setPricesOnPlatform(adapter, locationId, within.map((m) => ({ vendorSku: m.vendorSku, priceFen: m.newFen })));
    const answered = new Map(result.updated.map((u) => [u.vendorSku, u]));
    // Only what this attempt sent is stored and recorded here (a resumed attempt's earlier effect already was).
    const sent = within.map((m) => {
      const u = answered.get(m.vendorSku);
      return { m, previous: u?.previousFen ?? m.currentFen, price: u?.priceFen ?? m.newFen };
    });
    // The stored prices and their event in one transaction (the event is published once it commits).
    await this.tx.run(async () => {
      for (const { m, price } of sent) {
        // The first change of the day keeps the price it started from as the day's reference.
        await this.slots.setPrice(m.slot.id, price, m.reference.stored ? undefined : { fen: m.reference.fen, at: now, source: 'day_start' });
      }
      await this.events.record({
        kind: 'price.changed',
        summary: `${sent.length} price(s) changed at ${locationId}`,
        reasoning: 'confirm was true, the kill switch was off and every move was within the per-item price cap, from the previous price and from the day\'s reference price',
        location: locationId,
        data: { changes: sent.map((x) => ({ item: x.m.itemId, previous_fen: x.previous, price_fen: x.price, reference_fen: x.m.reference.fen })) },
      });
    });
    return sent.map((x) => ({ itemId: x.m.itemId, previousFen: x.previous, priceFen: x.price }));
  }

  /** The locked slots (their pending approval named) and the moves over the cap (each parked as an approval). */
  async park(locked: Move[], over: Move[], where: { locationId: string; machine: string; namespace: string; base: string }): Promise<Parked> {
    const messages: UcpMessage[] = [];
    const pending: PendingPrice[] = [];
    for (const m of locked) {
      const waiting = await this.approvals.findPending('price_change', m.slot.id);
      messages.push(message('approval_required', 'requires_buyer_review', `${m.itemId} has a price change awaiting approval${waiting ? ` ${waiting.id} (read it with get_approval)` : ''}; it was not changed`, `$.prices[${m.index}]`));
      if (waiting) pending.push(pendingOf(waiting, m, where.base));
    }
    if (over.length) {
      const created = await this.tx.run(async () => {
        const out: { m: Move; a: Approval }[] = [];
        for (const m of over) {
          const a = await this.approvals.create(
            {
              kind: 'price_change',
              // The machine and the good by name, beside their ids (issue 37: an owner judges what they read).
              subject: { slot_id: m.slot.id, location: where.locationId, namespace: where.namespace, item_id: m.itemId, vendor_sku: m.vendorSku, current_fen: m.currentFen, price_fen: m.newFen, machine: where.machine, title: m.slot.title },
              summary: `price of ${m.slot.title} (${m.itemId}) at ${where.machine} (${where.locationId}): ${m.currentFen} -> ${m.newFen} fen is over the per-item cap (reference ${m.reference.fen} fen)`,
              location: where.locationId,
            },
          );
          await this.slots.lock(m.slot.id);
          out.push({ m, a });
        }
        return out;
      });
      for (const { m, a } of created) {
        messages.push(message('approval_required', 'requires_buyer_review', `${m.itemId}: ${m.currentFen} -> ${m.newFen} fen is over the per-item price cap (from the previous price or from today's reference price ${m.reference.fen} fen); parked as approval ${a.id} (read it with get_approval); nothing changed for it`, `$.prices[${m.index}]`));
        pending.push(pendingOf(a, m, where.base));
      }
    }
    return { messages, pending };
  }

  /** An approved change made (executed, or found on the platform): the slot unlocked at the new price, which becomes the day's reference. */
  async recordApproved(a: Approval, s: PriceChangeApprovalSubject, priceFen: number, previousFen: number, why: string): Promise<void> {
    await this.tx.run(async () => {
      // An owner approved this price: the day's small steps count from it (issue 26).
      await this.slots.unlock(s.slot_id, priceFen, { fen: priceFen, at: new Date(), source: 'approved' });
      await this.events.record({
        kind: 'price.changed',
        summary: `price of ${s.item_id} at ${s.location} changed to ${priceFen} fen`,
        reasoning: `owner approval ${a.id} was approved; ${why}`,
        location: s.location,
        data: { approval_id: a.id, changes: [{ item: s.item_id, previous_fen: previousFen, price_fen: priceFen }] },
      });
    });
  }

  /** An approved or rejected change not made: the slot unlocked at its price, and why. */
  async recordNotMade(a: Approval, s: PriceChangeApprovalSubject, why: string): Promise<void> {
    await this.tx.run(async () => {
      await this.slots.unlock(s.slot_id);
      await this.events.record({
        kind: 'price.changed',
        summary: `price change of ${s.item_id} at ${s.location} not made`,
        reasoning: `owner approval ${a.id} was ${why}`,
        location: s.location,
        data: { approval_id: a.id, changes: [] },
      });
    });
  }
}
