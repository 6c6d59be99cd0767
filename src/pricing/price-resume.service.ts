import { Injectable } from '@nestjs/common';
import { message, UcpMessage, warning } from '../common/envelope/envelope';
import { MoneyClaims } from '../claims/money-claims.service';
import { Errors } from '../common/errors/errors';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { slotId } from '../identifiers/identifiers';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { PriceRecordRepository } from './price-record.repository';
import { PriceChanged } from './price-update';
import { PriceSlotsRepository } from './price-slots.repository';

/** A move within the cap, as PricingService holds it. */
export interface ResumedMove {
  index: number;
  itemId: string;
  vendorSku: string;
  currentFen: number;
  newFen: number;
}

export interface ResumedPrices {
  /** Moves the first attempt applied: answered as applied, never sent again. */
  applied: PriceChanged[];
  /** Moves that took no effect and were not superseded: sent now, as a first attempt would. */
  toSend: ResumedMove[];
  messages: UcpMessage[];
}

/**
 * A price change retried under the Idempotency-Key of a first attempt whose process died (issue 27): what that
 * attempt did is found by reading the service's own record first (the `price.changed` events since it began), the
 * platform second, and answered; a price superseded by a later acknowledged change is never sent again.
 */
@Injectable()
export class PriceResumeService {
  constructor(
    private readonly tx: Tx,
    private readonly record: PriceRecordRepository,
    private readonly slots: PriceSlotsRepository,
    private readonly registry: PartnerRegistry,
    private readonly events: EventsService,
    private readonly claims: MoneyClaims,
  ) {}

  async settle(locationId: string, namespace: string, moves: ResumedMove[], since: Date): Promise<ResumedPrices> {
    const out: ResumedPrices = { applied: [], toSend: [], messages: [] };
    const unrecorded: ResumedMove[] = [];
    for (const m of moves) {
      // Every acknowledged change since the first attempt began (an approval's too); its own has no approval.
      const recorded = await this.record.changesSince(locationId, m.itemId, since);
      const mine = recorded.find((c) => c.approvalId === null && c.priceFen === m.newFen);
      const path = `$.prices[${m.index}]`;
      if (mine) {
        out.applied.push({ itemId: m.itemId, previousFen: mine.previousFen, priceFen: mine.priceFen });
        out.messages.push(message('price_recovered', 'info', `${m.itemId}: ${m.newFen} fen was applied by the first attempt and recorded; nothing was sent again`, path));
      } else if (recorded.length) {
        const last = recorded[recorded.length - 1];
        out.messages.push(warning('price_superseded', `${m.itemId}: a later acknowledged change set ${last.priceFen} fen; ${m.newFen} fen was not sent again`, path));
      } else unrecorded.push(m);
    }
    if (!unrecorded.length) return out;
    // Nothing recorded: did the first attempt's POST /prices reach the platform? Read it (never send to find out).
    let items: { vendorSku: string; priceFen: number }[];
    try {
      items = (await this.registry.machine(namespace, 'inventory').getInventory(locationId)).items;
    } catch {
      throw Errors.conflict('idempotency_key_in_use', `the first attempt of this price change may have reached ${namespace}, which cannot be read now; nothing was sent; retry later`, '$.headers.Idempotency-Key').with({
        retryAfterSeconds: this.claims.retryAfter(new Date()),
      });
    }
    const found = unrecorded.filter((m) => items.find((i) => i.vendorSku === m.vendorSku)?.priceFen === m.newFen);
    out.toSend = unrecorded.filter((m) => !found.includes(m));
    if (found.length) {
      await this.tx.run(async () => {
        for (const m of found) await this.slots.setPrice(slotId(locationId, m.vendorSku), m.newFen);
        await this.events.record({
          kind: 'price.changed',
          summary: `${found.length} price(s) changed at ${locationId}`,
          reasoning: "a retry of a price change whose first attempt's process died: GET /inventory shows the new price(s), so they are recorded; nothing was sent again",
          location: locationId,
          data: { recovered: true, changes: found.map((m) => ({ item: m.itemId, previous_fen: m.currentFen, price_fen: m.newFen })) },
        });
      });
      for (const m of found) {
        out.applied.push({ itemId: m.itemId, previousFen: m.currentFen, priceFen: m.newFen });
        out.messages.push(message('price_recovered', 'info', `${m.itemId}: the platform shows ${m.newFen} fen, applied by the first attempt; recorded now, nothing was sent again`, `$.prices[${m.index}]`));
      }
    }
    return out;
  }
}
