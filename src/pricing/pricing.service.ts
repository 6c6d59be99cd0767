import { Injectable, OnModuleInit } from '@nestjs/common';
import { ReadOutcome } from '../claims/claim.rules';
import { message, UcpMessage } from '../common/envelope';
import { DomainError, Errors } from '../common/errors';
import { SupplyResolutionService } from '../replenishment/supply-resolution.service';
import type { Resolution } from '../replenishment/resolution.rules';
import { floorRefusal } from './price-floor.rules';
import { PriceChangeApprovalSubject } from '../approvals/approval-subjects';
import { ApprovalsService, ApprovalView } from '../approvals/approvals.service';
import { EventsService } from '../events/events.service';
import { splitByPriceCap } from '../guards/guard.rules';
import { GuardsService } from '../guards/guards.service';
import { KillSwitchService } from '../guards/kill-switch.service';
import { isLocationId, parseSkuId, slotId } from '../identifiers/identifiers';
import { SlotEntity } from '../inventory/slot.entity';
import { LocationsRepository } from '../locations/locations.repository';
import { MachineAdapter, PriceChange } from '../partners/adapter.types';
import { partnerFailure } from '../partners/partner-failure';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { SetPricesBody } from './pricing.dto';
import { PriceSlotsRepository } from './price-slots.repository';
import { PendingPrice, PriceUpdate } from './pricing.view';
import { Tx } from '../database/tx';

const cny = (amount: number) => ({ amount, currency: 'CNY' as const });

/** A line parked for an owner: what it waits on and how to read it. */
const pendingOf = (a: ApprovalView, m: Move): PendingPrice => ({ item: { id: m.itemId }, approval_id: a.id, previous: cny(m.currentFen), price: cny(m.newFen) });

interface Move {
  index: number;
  itemId: string;
  vendorSku: string;
  slot: SlotEntity;
  currentFen: number;
  newFen: number;
}

/**
 * Live price changes (PUT /locations/{id}/prices): confirm, kill switch, guard rules, then the per-item cap.
 * Moves within the cap go to the platform's POST /prices in one call; each move over it is parked as one
 * `price_change` approval (the slot is locked) and executed only when approved, with the kill switch checked then.
 */
@Injectable()
export class PricingService implements OnModuleInit {
  constructor(
    private readonly tx: Tx,
    private readonly locations: LocationsRepository,
    private readonly slots: PriceSlotsRepository,
    private readonly registry: PartnerRegistry,
    private readonly guards: GuardsService,
    private readonly killSwitch: KillSwitchService,
    private readonly approvals: ApprovalsService,
    private readonly events: EventsService,
    private readonly resolution: SupplyResolutionService,
  ) {}

  onModuleInit(): void {
    this.approvals.registerHandler('price_change', {
      onApproved: (a, s) => this.executeApproved(a, s),
      onRejected: (a, s) => this.unlock(a, s, 'rejected'),
      recover: (a, s, approved) => this.recoverExecution(a, s, approved),
    });
  }

  setPrices(locationId: string, body: SetPricesBody, base: string): Promise<PriceUpdate> {
    // One guard snapshot for the request: the kill switch and the price cap are decided on one read.
    return this.guards.withSnapshot(() => this.setPricesOnce(locationId, body, base));
  }

  private async setPricesOnce(locationId: string, body: SetPricesBody, base: string): Promise<PriceUpdate> {
    if (body.confirm !== true) throw Errors.confirmationRequired();
    if (!isLocationId(locationId)) throw Errors.invalid('$.location', 'a location id is 1 to 64 letters, digits, dot, underscore or hyphen');
    const location = await this.locations.find(locationId);
    if (!location) throw Errors.notFound(`location ${locationId}`);
    const seen = new Set<string>();
    const parsed = body.prices.map((p, i) => {
      const id = parseSkuId(p.item.id);
      const path = `$.prices[${i}].item.id`;
      if (!id) throw Errors.invalid(path, `${p.item.id} is not a sku id <vendor>-machine:<vendor_sku>`);
      if (id.role !== 'machine') throw Errors.namespaceMismatch(path, `${p.item.id} is a supply id; prices are set on machine ids`);
      if (id.namespace !== location.namespace) {
        throw Errors.namespaceMismatch(path, `${p.item.id} is not in ${location.namespace}, the namespace of location ${locationId}`);
      }
      if (seen.has(id.skuId)) throw Errors.invalid(path, `${p.item.id} appears twice`);
      seen.add(id.skuId);
      return { index: i, itemId: id.skuId, vendorSku: id.vendorSku, newFen: p.price.amount };
    });
    const adapter = this.registry.machine(location.namespace, 'pricing', '$.prices');
    await this.killSwitch.assertOff();
    const rules = await this.guards.rules();

    const slotIds = parsed.map((p) => slotId(locationId, p.vendorSku));
    const slots = await this.slots.find(slotIds);
    const byId = new Map(slots.map((s) => [s.id, s]));
    const moves: Move[] = parsed.map((p) => {
      const slot = byId.get(slotId(locationId, p.vendorSku));
      if (!slot) throw Errors.invalid(`$.prices[${p.index}].item.id`, `${p.itemId} is not known at ${locationId} (sync the location first)`);
      return { ...p, slot, currentFen: slot.priceFen };
    });
    await this.checkFloor(moves, body);

    const messages: UcpMessage[] = [];
    const actions: Record<string, unknown>[] = [];
    const pending: PendingPrice[] = [];
    const locked = moves.filter((m) => m.slot.priceLocked);
    const { within, over } = splitByPriceCap(rules.priceCapPerItem, moves.filter((m) => !m.slot.priceLocked));

    const updated: { item: { id: string }; previous: ReturnType<typeof cny>; price: ReturnType<typeof cny> }[] = [];
    if (within.length) {
      const result = await this.callPlatform(adapter, locationId, within.map((m) => ({ vendorSku: m.vendorSku, priceFen: m.newFen })));
      const answered = new Map(result.updated.map((u) => [u.vendorSku, u]));
      for (const m of within) {
        const u = answered.get(m.vendorSku);
        const previous = u?.previousFen ?? m.currentFen;
        const price = u?.priceFen ?? m.newFen;
        updated.push({ item: { id: m.itemId }, previous: cny(previous), price: cny(price) });
      }
      // The stored prices and their event in one transaction (the event is published once it commits).
      await this.tx.run(async () => {
        for (const u of updated) {
          const vendorSku = parseSkuId(u.item.id)!.vendorSku;
          await this.slots.setPrice(slotId(locationId, vendorSku), u.price.amount);
        }
        await this.events.record({
          kind: 'price.changed',
          summary: `${updated.length} price(s) changed at ${locationId}`,
          reasoning: 'confirm was true, the kill switch was off and every move was within the per-item price cap',
          location: locationId,
          data: { changes: updated.map((u) => ({ item: u.item.id, previous_fen: u.previous.amount, price_fen: u.price.amount })) },
        });
      });
    }

    for (const m of locked) {
      const waiting = await this.approvals.findPending('price_change', m.slot.id);
      messages.push(message('approval_required', 'requires_buyer_review', `${m.itemId} has a price change awaiting approval${waiting ? ` ${waiting.id} (read it with get_approval)` : ''}; it was not changed`, `$.prices[${m.index}]`));
      if (waiting) {
        actions.push(this.action(waiting, m, base));
        pending.push(pendingOf(waiting, m));
      }
    }
    if (over.length) {
      const created = await this.tx.run(async () => {
        const out: { m: Move; a: ApprovalView }[] = [];
        for (const m of over) {
          const a = await this.approvals.create(
            {
              kind: 'price_change',
              subject: { slot_id: m.slot.id, location: locationId, namespace: location.namespace, item_id: m.itemId, vendor_sku: m.vendorSku, current_fen: m.currentFen, price_fen: m.newFen },
              summary: `price of ${m.itemId} at ${locationId}: ${m.currentFen} -> ${m.newFen} fen is over the per-item cap`,
              location: locationId,
            },
          );
          await this.slots.lock(m.slot.id);
          out.push({ m, a });
        }
        return out;
      });
      for (const { m, a } of created) {
        messages.push(message('approval_required', 'requires_buyer_review', `${m.itemId}: ${m.currentFen} -> ${m.newFen} fen is over the per-item price cap; parked as approval ${a.id} (read it with get_approval); nothing changed for it`, `$.prices[${m.index}]`));
        actions.push(this.action(a, m, base));
        pending.push(pendingOf(a, m));
      }
    }
    return { location: locationId, updated, pending, actions, messages };
  }

  /**
   * Refuses the whole request (nothing changes) when a line goes below its purchase cost or is cut by more than 90%
   * without the line's explicit go-ahead. The cost is read only for cuts, from the supply resolution (cached catalogs);
   * a good no supplier prices has no known cost and only the deep-cut rule applies.
   */
  private async checkFloor(moves: Move[], body: SetPricesBody): Promise<void> {
    const cuts = moves.filter((m) => m.newFen < m.currentFen);
    if (!cuts.length) return;
    const costed = cuts.filter((m) => body.prices[m.index].allow_below_cost !== true).map((m) => m.itemId);
    const byId = costed.length ? (await this.resolution.resolve(costed)).byId : new Map<string, Resolution | null>();
    const problems: UcpMessage[] = [];
    for (const m of cuts) {
      const line = body.prices[m.index];
      const costFen = byId.get(m.itemId)?.offer.eachPriceFen ?? null;
      const refusal = floorRefusal({ currentFen: m.currentFen, newFen: m.newFen, costFen, allowBelowCost: line.allow_below_cost === true, allowDeepCut: line.allow_deep_cut === true });
      if (refusal) problems.push(message('invalid', 'recoverable', `${m.itemId}: ${refusal.text}`, `$.prices[${m.index}].price.amount`));
    }
    if (problems.length) throw new DomainError('invalid', problems[0].content, { path: problems[0].path, extra: problems.slice(1) });
  }

  private action(a: ApprovalView, m: Move, base: string): Record<string, unknown> {
    return { type: 'approval', approval_id: a.id, item: { id: m.itemId }, method: 'POST', url: `${base}/ucp/v1/approvals/${a.id}`, body: { approved: true } };
  }

  private async callPlatform(adapter: MachineAdapter, locationId: string, prices: PriceChange[]) {
    try {
      return await adapter.setPrices(locationId, prices);
    } catch (err) {
      throw partnerFailure(err, {
        who: `the machine platform ${adapter.namespace}`,
        refused: (e) => Errors.upstreamRejected('the machine platform', 'the price change', e.reason),
      });
    }
  }

  /** Approval handler: executes the parked change now (kill switch and guard rules checked at this moment). */
  private async executeApproved(a: ApprovalView, s: PriceChangeApprovalSubject): Promise<void> {
    await this.killSwitch.assertOff();
    await this.guards.rules();
    const adapter = this.registry.machine(s.namespace, 'pricing');
    const result = await this.callPlatform(adapter, s.location, [{ vendorSku: s.vendor_sku, priceFen: s.price_fen }]);
    const u = result.updated.find((x) => x.vendorSku === s.vendor_sku);
    await this.recordApprovedChange(a, s, u?.priceFen ?? s.price_fen, u?.previousFen ?? s.current_fen, 'the kill switch was off when it was executed');
  }

  private async recordApprovedChange(a: ApprovalView, s: PriceChangeApprovalSubject, priceFen: number, previousFen: number, why: string): Promise<void> {
    await this.tx.run(async () => {
      await this.slots.unlock(s.slot_id, priceFen);
      await this.events.record({
        kind: 'price.changed',
        summary: `price of ${s.item_id} at ${s.location} changed to ${priceFen} fen`,
        reasoning: `owner approval ${a.id} was approved; ${why}`,
        location: s.location,
        data: { approval_id: a.id, changes: [{ item: s.item_id, previous_fen: previousFen, price_fen: priceFen }] },
      });
    });
  }

  /**
   * An interrupted execution of a price approval, read from the platform (never set again): approved and the
   * machine shows the new price → done (recorded here); another price → not done (pending again, the slot stays
   * locked); the platform cannot be read → throws (unknown, read again later). A rejection only unlocks: done.
   */
  private async recoverExecution(a: ApprovalView, s: PriceChangeApprovalSubject, approved: boolean): Promise<ReadOutcome> {
    if (!approved) {
      await this.unlock(a, s, 'rejected');
      return 'placed';
    }
    const { items } = await this.registry.machine(s.namespace, 'inventory').getInventory(s.location);
    const item = items.find((i) => i.vendorSku === s.vendor_sku);
    if (!item || item.priceFen !== s.price_fen) return 'not_placed';
    await this.recordApprovedChange(a, s, s.price_fen, s.current_fen, 'its execution was interrupted and GET /inventory shows the new price; nothing was sent again');
    return 'placed';
  }

  private async unlock(a: ApprovalView, s: PriceChangeApprovalSubject, why: string): Promise<void> {
    await this.tx.run(async () => {
      await this.slots.unlock(s.slot_id);
      await this.events.record({
        kind: 'price.changed',
        summary: `price change of ${s.item_id} at ${s.location} not made`,
        reasoning: `owner approval ${a.id} was ${why}; the price stays as it was`,
        location: s.location,
        data: { approval_id: a.id, changes: [] },
      });
    });
  }
}
