import { Injectable } from '@nestjs/common';
import { message, UcpMessage } from '../common/envelope';
import { DomainError, Errors } from '../common/errors';
import { SupplyResolutionService } from '../replenishment/plan/supply-resolution.service';
import type { Resolution } from '../replenishment/plan/resolution.rules';
import { floorRefusal } from './price-floor.rules';
import { PriceChangeApprovalSubject } from '../approvals/approval-subjects';
import { ApprovalsService, Approval } from '../approvals/approvals.service';
import { EventsService } from '../events/events.service';
import { GuardsService } from '../guards/guards.service';
import { KillSwitchService } from '../guards/kill-switch.service';
import { isLocationId, parseSkuId, slotId } from '../identifiers/identifiers';
import { SlotEntity } from '../inventory/slot.entity';
import { LocationsRepository } from '../locations/locations.repository';
import { setPricesOnPlatform } from './platform-prices';
import { PriceResumeService } from './price-resume.service';
import type { Attempt } from '../idempotency/idempotency.service';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { SetPricesBody } from './pricing.dto';
import { PriceSlotsRepository } from './price-slots.repository';
import { PendingPrice, PriceUpdate } from './pricing.view';
import { Tx } from '../database/tx';
import { toPlus8 } from '../common/time';
import { overCapOrReference, PriceReference, referenceOf } from './price-reference.rules';

const cny = (amount: number) => ({ amount, currency: 'CNY' as const });

/** A line parked for an owner: what it waits on and how to read it. */
const pendingOf = (a: Approval, m: Move): PendingPrice => ({ item: { id: m.itemId }, approval_id: a.id, previous: cny(m.currentFen), price: cny(m.newFen) });

interface Move {
  index: number;
  itemId: string;
  vendorSku: string;
  slot: SlotEntity;
  currentFen: number;
  newFen: number;
  /** Today's reference price (price-reference.rules.ts). */
  reference: PriceReference;
}

/**
 * Live price changes (PUT /locations/{id}/prices): confirm, kill switch, guard rules, then the per-item cap.
 * Moves within the cap go to the platform's POST /prices in one call; each move over it is parked as one
 * `price_change` approval (the slot is locked) and executed only when approved (PriceApprovalHandler).
 */
@Injectable()
export class PricingService {
  constructor(
    private readonly tx: Tx,
    private readonly locations: LocationsRepository,
    private readonly slots: PriceSlotsRepository,
    private readonly registry: PartnerRegistry,
    private readonly guards: GuardsService,
    private readonly killSwitch: KillSwitchService,
    private readonly approvals: ApprovalsService,
    private readonly events: EventsService,
    private readonly resume: PriceResumeService,
    private readonly resolution: SupplyResolutionService,
  ) {}

  /** `attempt`: a retry under the Idempotency-Key of a first attempt that died answers what it applied (issue 27). */
  setPrices(locationId: string, body: SetPricesBody, base: string, attempt: Attempt = { resumed: false }): Promise<PriceUpdate> {
    // One guard snapshot for the request: the kill switch and the price cap are decided on one read.
    return this.guards.withSnapshot(() => this.setPricesOnce(locationId, body, base, attempt));
  }

  private async setPricesOnce(locationId: string, body: SetPricesBody, base: string, attempt: Attempt): Promise<PriceUpdate> {
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
    const now = new Date();
    const moves: Move[] = parsed.map((p) => {
      const slot = byId.get(slotId(locationId, p.vendorSku));
      if (!slot) throw Errors.invalid(`$.prices[${p.index}].item.id`, `${p.itemId} is not known at ${locationId} (sync the location first)`);
      const reference = referenceOf({ priceFen: slot.priceFen, referenceFen: slot.priceReferenceFen, referenceAt: slot.priceReferenceAt, referenceSource: slot.priceReferenceSource }, now);
      return { ...p, slot, currentFen: slot.priceFen, reference };
    });
    await this.checkFloor(moves, body);

    const messages: UcpMessage[] = [];
    const actions: Record<string, unknown>[] = [];
    const pending: PendingPrice[] = [];
    const locked = moves.filter((m) => m.slot.priceLocked);
    // The cap holds against the previous price and against today's reference, so small steps cannot add up.
    let open = moves.filter((m) => !m.slot.priceLocked);
    const updated: { item: { id: string }; previous: ReturnType<typeof cny>; price: ReturnType<typeof cny> }[] = [];
    if (attempt.resumed && attempt.startedAt) {
      // What the dead first attempt applied is answered; a superseded price is never sent again (issue 27).
      const resumed = await this.resume.settle(locationId, location.namespace, open, attempt.startedAt);
      updated.push(...resumed.applied);
      messages.push(...resumed.messages);
      open = open.filter((m) => resumed.toSend.includes(m));
    }
    const isOver = (m: Move) => overCapOrReference(rules.priceCapPerItem, { currentFen: m.currentFen, referenceFen: m.reference.fen, newFen: m.newFen });
    const within = open.filter((m) => !isOver(m));
    const over = open.filter(isOver);

    if (within.length) {
      const result = await setPricesOnPlatform(adapter, locationId, within.map((m) => ({ vendorSku: m.vendorSku, priceFen: m.newFen })));
      const answered = new Map(result.updated.map((u) => [u.vendorSku, u]));
      // Only what this attempt sent is stored and recorded here (a resumed attempt's earlier effect already was).
      const sent = within.map((m) => {
        const u = answered.get(m.vendorSku);
        return { m, previous: u?.previousFen ?? m.currentFen, price: u?.priceFen ?? m.newFen };
      });
      updated.push(...sent.map((x) => ({ item: { id: x.m.itemId }, previous: cny(x.previous), price: cny(x.price) })));
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
        const out: { m: Move; a: Approval }[] = [];
        for (const m of over) {
          const a = await this.approvals.create(
            {
              kind: 'price_change',
              subject: { slot_id: m.slot.id, location: locationId, namespace: location.namespace, item_id: m.itemId, vendor_sku: m.vendorSku, current_fen: m.currentFen, price_fen: m.newFen },
              summary: `price of ${m.itemId} at ${locationId}: ${m.currentFen} -> ${m.newFen} fen is over the per-item cap (reference ${m.reference.fen} fen)`,
              location: locationId,
            },
          );
          await this.slots.lock(m.slot.id);
          out.push({ m, a });
        }
        return out;
      });
      for (const { m, a } of created) {
        messages.push(message('approval_required', 'requires_buyer_review', `${m.itemId}: ${m.currentFen} -> ${m.newFen} fen is over the per-item price cap (from the previous price or from today's reference price ${m.reference.fen} fen); parked as approval ${a.id} (read it with get_approval); nothing changed for it`, `$.prices[${m.index}]`));
        actions.push(this.action(a, m, base));
        pending.push(pendingOf(a, m));
      }
    }
    const references = moves.map((m) => ({ item: { id: m.itemId }, price: cny(m.reference.fen), source: m.reference.source, since: toPlus8(m.reference.since) }));
    return { location: locationId, updated, pending, actions, references, messages };
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

  private action(a: Approval, m: Move, base: string): Record<string, unknown> {
    return { type: 'approval', approval_id: a.id, item: { id: m.itemId }, method: 'POST', url: `${base}/ucp/v1/approvals/${a.id}`, body: { approved: true } };
  }
}
