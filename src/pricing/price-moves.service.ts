import { Injectable } from '@nestjs/common';
import { message, UcpMessage } from '../common/envelope/envelope';
import { DomainError, Errors } from '../common/errors/errors';
import { isLocationId, parseSkuId, slotId } from '../identifiers/identifiers';
import { SlotEntity } from '../inventory/slot.entity';
import { LocationsRepository } from '../locations/locations.repository';
import { LocationRecord } from '../locations/locations.rules';
import type { Resolution } from '../replenishment/supply-resolution/resolution.rules';
import { SupplyResolutionService } from '../replenishment/supply-resolution/supply-resolution.service';
import { floorRefusal } from './price-floor.rules';
import { PriceReference, referenceOf } from './price-reference.rules';
import { PriceSlotsRepository } from './price-slots.repository';
import type { PriceRequest } from './price-update';

/** A price line of the request: its index, the machine item and the price asked. */
export interface PriceLine {
  index: number;
  itemId: string;
  vendorSku: string;
  newFen: number;
}

/** A price line with the slot it moves, from its current price, and the day's reference. */
export interface Move extends PriceLine {
  slot: SlotEntity;
  currentFen: number;
  /** Today's reference price (price-reference.rules.ts). */
  reference: PriceReference;
}

/** The lines of a price request: machine ids of the location's namespace, each once (400 otherwise). */
export function parsePriceLines(location: { namespace: string }, locationId: string, body: PriceRequest): PriceLine[] {
  const seen = new Set<string>();
  return body.prices.map((p, i) => {
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
}

/** The moves of a price request: its location and lines, each line's slot, current and reference price; a cut under the floor refuses all. */
@Injectable()
export class PriceMovesService {
  constructor(
    private readonly locations: LocationsRepository,
    private readonly slots: PriceSlotsRepository,
    private readonly resolution: SupplyResolutionService,
  ) {}

  /** The location (404 when unknown) and the request's lines (parsePriceLines). */
  async linesOf(locationId: string, body: PriceRequest): Promise<{ location: LocationRecord; parsed: PriceLine[] }> {
    if (!isLocationId(locationId)) throw Errors.invalid('$.location', 'a location id is 1 to 64 letters, digits, dot, underscore or hyphen');
    const location = await this.locations.find(locationId);
    if (!location) throw Errors.notFound(`location ${locationId}`);
    return { location, parsed: parsePriceLines(location, locationId, body) };
  }

  async movesOf(locationId: string, parsed: PriceLine[], body: PriceRequest, now: Date): Promise<Move[]> {
    const slotIds = parsed.map((p) => slotId(locationId, p.vendorSku));
    const slots = await this.slots.find(slotIds);
    const byId = new Map(slots.map((s) => [s.id, s]));
    const moves: Move[] = parsed.map((p) => {
      const slot = byId.get(slotId(locationId, p.vendorSku));
      if (!slot) throw Errors.invalid(`$.prices[${p.index}].item.id`, `${p.itemId} is not known at ${locationId} (sync the location first)`);
      const reference = referenceOf({ priceFen: slot.priceFen, referenceFen: slot.priceReferenceFen, referenceAt: slot.priceReferenceAt, referenceSource: slot.priceReferenceSource }, now);
      return { ...p, slot, currentFen: slot.priceFen, reference };
    });
    await this.checkFloor(moves, body);
    return moves;
  }

  /**
   * Refuses the whole request (nothing changes) when a line goes below its purchase cost or is cut by more than 90%
   * without the line's explicit go-ahead. The cost is read only for cuts, from the supply resolution (cached catalogs);
   * a good no supplier prices has no known cost and only the deep-cut rule applies.
   */
  private async checkFloor(moves: Move[], body: PriceRequest): Promise<void> {
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
}
