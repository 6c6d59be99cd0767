import { Injectable } from '@nestjs/common';
import { UcpMessage } from '../common/envelope/envelope';
import { Errors } from '../common/errors/errors';
import { GuardsService } from '../guards/guards.service';
import { KillSwitchService } from '../guards/kill-switch.service';
import type { Attempt } from '../idempotency/idempotency.service';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { PriceChangesService } from './price-changes.service';
import { Move, PriceMovesService } from './price-moves.service';
import { overCapOrReference } from './price-reference.rules';
import { PriceResumeService } from './price-resume.service';
import { PriceChanged, PriceRequest, PriceUpdate } from './price-update';

/**
 * Live price changes (PUT /locations/{id}/prices): confirm, kill switch, guard rules, then the per-item cap.
 * The moves are read by PriceMovesService (a cut under the floor refuses all); those within the cap go to the
 * platform's POST /prices in one call and each move over it is parked as one `price_change` approval (the slot is
 * locked: PriceChangesService), executed only when approved (PriceApprovalHandler).
 */
@Injectable()
export class PricingService {
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly guards: GuardsService,
    private readonly killSwitch: KillSwitchService,
    private readonly resume: PriceResumeService,
    private readonly moves: PriceMovesService,
    private readonly changes: PriceChangesService,
  ) {}

  /** `attempt`: a retry under the Idempotency-Key of a first attempt that died answers what it applied (issue 27). */
  setPrices(locationId: string, body: PriceRequest, base: string, attempt: Attempt = { resumed: false }): Promise<PriceUpdate> {
    // One guard snapshot for the request: the kill switch and the price cap are decided on one read.
    return this.guards.withSnapshot(() => this.setPricesOnce(locationId, body, base, attempt));
  }

  private async setPricesOnce(locationId: string, body: PriceRequest, base: string, attempt: Attempt): Promise<PriceUpdate> {
    if (body.confirm !== true) throw Errors.confirmationRequired();
    const { location, parsed } = await this.moves.linesOf(locationId, body);
    const adapter = this.registry.machine(location.namespace, 'pricing', '$.prices');
    await this.killSwitch.assertOff();
    const rules = await this.guards.rules();

    const now = new Date();
    const moves = await this.moves.movesOf(locationId, parsed, body, now);

    const messages: UcpMessage[] = [];
    const locked = moves.filter((m) => m.slot.priceLocked);
    // The cap holds against the previous price and against today's reference, so small steps cannot add up.
    let open = moves.filter((m) => !m.slot.priceLocked);
    const updated: PriceChanged[] = [];
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

    if (within.length) updated.push(...(await this.changes.apply(adapter, locationId, within, now)));

    const parked = await this.changes.park(locked, over, { locationId, machine: location.name, namespace: location.namespace, base });
    messages.push(...parked.messages);
    const references = moves.map((m) => ({ itemId: m.itemId, fen: m.reference.fen, source: m.reference.source, since: m.reference.since }));
    return { locationId, updated, pending: parked.pending, references, messages };
  }
}
