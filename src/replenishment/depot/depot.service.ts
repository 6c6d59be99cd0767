import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { DomainError, Errors } from '../../common/errors/errors';
import { Tx } from '../../database/tx';
import { EventsService } from '../../events/events.service';
import { parseSkuId } from '../../identifiers/identifiers';
import { RunsRepository } from '../runs/runs.repository';
import { DEFAULT_DEPOT_ID, DepotEntity } from './depot.entity';
import { DepotRepository, DepotStockRow } from './depot.repository';
import { countDelta, decodeDepotCursor, DEPOT_PAGE_MAX, encodeDepotCursor, fillRefusal } from './depot.rules';

export interface DepotFill {
  slot_id: string;
  item: { id: string };
  quantity: number;
  stock_before: number;
  stock_after: number;
}

export interface DepotCount {
  item: { id: string };
  before: number;
  after: number;
  delta: number;
}

/** A page of what the depot holds (domain data; depot.view.ts renders it). */
export interface DepotPage {
  depot: DepotEntity;
  stock: DepotStockRow[];
  /** The cursor of the following page; null on the last. */
  next: string | null;
  /** The whole depot, whatever the page. */
  totals: { goods: number; units: number };
}

/**
 * The depot (one per deployment): units bought beyond what the slots take are kept here (RunStockService adds a
 * delivery's excess), the plan serves slots from it before buying, a fill moves units depot → slot, and a stock
 * count sets what it holds. Every change is a `depot.stock` event in the transaction that made it.
 */
@Injectable()
export class DepotService {
  constructor(
    private readonly repo: DepotRepository,
    private readonly runs: RunsRepository,
    private readonly events: EventsService,
    private readonly tx: Tx,
    private readonly clock: Clock,
  ) {}

  /** A page of what the depot holds, by sku id (keyset: `cursor` from the previous page), with the whole depot's totals. */
  async page(q: { cursor?: string; limit?: number } = {}): Promise<DepotPage> {
    const limit = Math.min(q.limit ?? DEPOT_PAGE_MAX, DEPOT_PAGE_MAX);
    let after: string | null = null;
    if (q.cursor !== undefined) {
      after = decodeDepotCursor(q.cursor);
      if (after === null) throw Errors.invalid('$.cursor', 'cursor is not a cursor this service issued');
    }
    const depot = await this.depot();
    const rows = await this.repo.stockPage(DEFAULT_DEPOT_ID, after, limit + 1);
    const stock = rows.slice(0, limit);
    const next = rows.length > limit ? encodeDepotCursor(stock[stock.length - 1].skuId) : null;
    return { depot, stock, next, totals: await this.repo.totals(DEFAULT_DEPOT_ID) };
  }

  /** What the depot holds per good (the plan serves slots from it). */
  async available(skuIds?: string[]): Promise<Map<string, number>> {
    return new Map((await this.repo.stock(DEFAULT_DEPOT_ID, skuIds)).map((s) => [s.skuId, s.quantity]));
  }

  /** A delivery's units beyond the slot's capacity go to the depot (inside the receiving transaction). */
  async keepExcess(skuId: string, units: number): Promise<void> {
    if (units > 0) await this.repo.add(DEFAULT_DEPOT_ID, skuId, units);
  }

  /** Moves units from the depot into slots: each slot's good, at most what it has room for and what the depot holds. */
  private readonly filledListeners: ((filled: DepotFill[]) => Promise<void>)[] = [];

  /** Told, after the commit, of the units filled from the depot into slots (staging's simulated shelves take them). */
  onFilled(listener: (filled: DepotFill[]) => Promise<void>): void {
    this.filledListeners.push(listener);
  }

  async fill(fills: { slot_id: string; quantity: number }[], confirm?: unknown): Promise<DepotPage & { filled: DepotFill[] }> {
    if (confirm !== true) throw Errors.confirmationRequired();
    const filled = await this.tx.run(async () => {
      const out = await this.moveIntoSlots(fills, '$.fills');
      const units = out.reduce((t, f) => t + f.quantity, 0);
      await this.events.record({
        kind: 'depot.stock',
        summary: `filled ${out.length} slot(s) from the depot: ${units} unit(s)`,
        reasoning: 'units kept in the depot were put into the slots, so the plan does not buy them again',
        data: { depot_id: DEFAULT_DEPOT_ID, action: 'filled', fills: out },
      });
      return out;
    });
    await this.notifyFilled(filled);
    return { ...(await this.page()), filled };
  }

  /**
   * Moves units from the depot into slots inside the caller's transaction: each slot's good, at most what it has
   * room for and what the depot holds (refused otherwise, naming `path[i]`). A fill of a depot-screen and a visit's
   * loads share it.
   */
  async moveIntoSlots(fills: { slot_id: string; quantity: number }[], path: string): Promise<DepotFill[]> {
    const dupFill = firstRepeat(fills.map((f) => f.slot_id));
    if (dupFill >= 0) throw Errors.invalid(`${path}[${dupFill}].slot_id`, `slot ${fills[dupFill].slot_id} is listed twice`);
    const slots = new Map((await this.runs.slotsForUpdate(fills.map((f) => f.slot_id))).map((s) => [s.id, s]));
    fills.forEach((f, i) => {
      if (!slots.has(f.slot_id)) throw Errors.notFound(`slot ${f.slot_id}`, `${path}[${i}].slot_id`);
    });
    const held = new Map((await this.repo.stockForUpdate(DEFAULT_DEPOT_ID, [...slots.values()].map((s) => s.skuId))).map((r) => [r.skuId, r.quantity]));
    const out: DepotFill[] = [];
    fills.forEach((f, i) => {
      const slot = slots.get(f.slot_id)!;
      const refusal = fillRefusal({ quantity: f.quantity, stock: slot.stock, capacity: slot.capacity, depotHas: held.get(slot.skuId) ?? 0 });
      if (refusal) throw new DomainError(refusal.code, `slot ${f.slot_id}: ${refusal.text}`, { path: `${path}[${i}].quantity` });
      held.set(slot.skuId, (held.get(slot.skuId) ?? 0) - f.quantity);
      out.push({ slot_id: f.slot_id, item: { id: slot.skuId }, quantity: f.quantity, stock_before: slot.stock, stock_after: Math.max(0, slot.stock) + f.quantity });
    });
    const at = this.clock.now();
    for (const f of out) await this.runs.setSlotStock(f.slot_id, { before: f.stock_before, after: f.stock_after, at });
    for (const sku of new Set(out.map((f) => f.item.id))) await this.repo.set(DEFAULT_DEPOT_ID, sku, held.get(sku)!);
    return out;
  }

  /** After the commit: the listeners learn of units that went from the depot into slots. */
  async notifyFilled(filled: DepotFill[]): Promise<void> {
    if (filled.length === 0) return;
    for (const l of this.filledListeners) await l(filled);
  }

  /** A stock count: what was counted replaces what the depot held, with the reason and the differences recorded. */
  async count(counts: { item: { id: string }; quantity: number }[], reason: string, confirm?: unknown): Promise<DepotPage & { counted: DepotCount[] }> {
    if (confirm !== true) throw Errors.confirmationRequired();
    counts.forEach((c, i) => {
      if (!parseSkuId(c.item.id)) throw Errors.invalid(`$.counts[${i}].item.id`, `${c.item.id} is not a sku id (<namespace>:<vendor sku>)`);
    });
    const dupCount = firstRepeat(counts.map((c) => c.item.id));
    if (dupCount >= 0) throw Errors.invalid(`$.counts[${dupCount}].item.id`, `${counts[dupCount].item.id} is listed twice`);
    const counted = await this.tx.run(async () => {
      // Only goods the service knows (issue 37): a made-up id would become stock nobody can check.
      const known = await this.repo.knownGoods(DEFAULT_DEPOT_ID, counts.map((c) => c.item.id));
      const unknown = counts.findIndex((c) => !known.has(c.item.id));
      if (unknown >= 0) {
        throw Errors.invalid(`$.counts[${unknown}].item.id`, `${counts[unknown].item.id} is a good no machine slot sells and the depot does not hold: the depot counts only the goods of the synced slots`);
      }
      const held = new Map((await this.repo.stockForUpdate(DEFAULT_DEPOT_ID, counts.map((c) => c.item.id))).map((r) => [r.skuId, r.quantity]));
      const out = counts.map((c) => {
        const before = held.get(c.item.id) ?? 0;
        return { item: { id: c.item.id }, before, after: c.quantity, delta: countDelta(before, c.quantity) };
      });
      for (const c of out) await this.repo.set(DEFAULT_DEPOT_ID, c.item.id, c.after);
      await this.events.record({
        kind: 'depot.stock',
        summary: `depot stock counted: ${out.length} good(s), ${out.filter((c) => c.delta !== 0).length} changed`,
        reasoning: `stock count: ${reason}`,
        data: { depot_id: DEFAULT_DEPOT_ID, action: 'counted', reason, counts: out },
      });
      return out;
    });
    return { ...(await this.page()), counted };
  }

  private async depot(): Promise<DepotEntity> {
    const d = await this.repo.depot(DEFAULT_DEPOT_ID);
    // The migration creates it; a database without it is not migrated.
    if (!d) throw Errors.notFound(`depot ${DEFAULT_DEPOT_ID}`);
    return d;
  }
}

/** The index of the first value seen before, or -1. */
function firstRepeat(values: string[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < values.length; i++) {
    if (seen.has(values[i])) return i;
    seen.add(values[i]);
  }
  return -1;
}
