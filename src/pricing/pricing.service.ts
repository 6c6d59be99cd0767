import { Injectable } from '@nestjs/common';
import { message, UcpMessage } from '../common/envelope';
import { Errors } from '../common/errors';
import { ApprovalsService, ApprovalView } from '../approvals/approvals.service';
import { EventsService } from '../events/events.service';
import { splitByPriceCap } from '../guards/guard.rules';
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
import { PriceUpdate } from './pricing.view';
import { Tx } from '../database/tx';

const cny = (amount: number) => ({ amount, currency: 'CNY' as const });

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
    const moves: Move[] = parsed.map((p) => {
      const slot = byId.get(slotId(locationId, p.vendorSku));
      if (!slot) throw Errors.invalid(`$.prices[${p.index}].item.id`, `${p.itemId} is not known at ${locationId} (sync the location first)`);
      return { ...p, slot, currentFen: slot.priceFen };
    });

    const messages: UcpMessage[] = [];
    const actions: Record<string, unknown>[] = [];
    const locked = moves.filter((m) => m.slot.priceLocked);
    let open = moves.filter((m) => !m.slot.priceLocked);
    const updated: { item: { id: string }; previous: ReturnType<typeof cny>; price: ReturnType<typeof cny> }[] = [];
    if (attempt.resumed && attempt.startedAt) {
      // What the dead first attempt applied is answered; a superseded price is never sent again (issue 27).
      const resumed = await this.resume.settle(locationId, location.namespace, open, attempt.startedAt);
      updated.push(...resumed.applied);
      messages.push(...resumed.messages);
      open = open.filter((m) => resumed.toSend.includes(m));
    }
    const { within, over } = splitByPriceCap(rules.priceCapPerItem, open);

    if (within.length) {
      const result = await setPricesOnPlatform(adapter, locationId, within.map((m) => ({ vendorSku: m.vendorSku, priceFen: m.newFen })));
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
      const pending = await this.approvals.findPending('price_change', m.slot.id);
      messages.push(message('approval_required', 'requires_buyer_review', `${m.itemId} has a price change awaiting approval${pending ? ` (${pending.id})` : ''}; it was not changed`, `$.prices[${m.index}]`));
      if (pending) actions.push(this.action(pending, m, base));
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
        messages.push(message('approval_required', 'requires_buyer_review', `${m.itemId}: ${m.currentFen} -> ${m.newFen} fen is over the per-item price cap; parked as approval ${a.id}; nothing changed for it`, `$.prices[${m.index}]`));
        actions.push(this.action(a, m, base));
      }
    }
    return { location: locationId, updated, actions, messages };
  }

  private action(a: ApprovalView, m: Move, base: string): Record<string, unknown> {
    return { type: 'approval', approval_id: a.id, item: { id: m.itemId }, method: 'POST', url: `${base}/ucp/v1/approvals/${a.id}`, body: { approved: true } };
  }
}
