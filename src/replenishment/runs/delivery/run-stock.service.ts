import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { warning, UcpMessage } from '../../../common/envelope/envelope';
import { EventsService } from '../../../events/events.service';
import { DepotService } from '../../depot/depot.service';
import { splitReceipt } from '../../depot/depot.rules';
import { RunDelivery } from '../replenishment-run.entity';
import { RunsRepository } from '../runs.repository';

/** A line's receipt: the units that came for its slot, and what the line ordered (each). */
export interface LineArrival {
  slot_id: string;
  quantity: number;
  ordered: number;
}

/** Stock rising by what a run delivered, whoever delivered it (a person receiving, or the machine platform). */
@Injectable()
export class RunStockService {
  constructor(
    private readonly repo: RunsRepository,
    private readonly depot: DepotService,
    private readonly events: EventsService,
    private readonly clock: Clock,
  ) {}

  /**
   * Raises each delivered slot's stock (each), capped at its capacity when known; what the slot cannot take goes to
   * the depot (box rounding), never more than the line ordered: units beyond the order are `not_booked` (issue 37).
   * The record of what changed. Runs inside the caller's transaction.
   */
  async raiseStock(delivered: LineArrival[]): Promise<RunDelivery[]> {
    const slots = new Map((await this.repo.slotsForUpdate([...new Set(delivered.map((d) => d.slot_id))])).map((s) => [s.id, s]));
    const record: RunDelivery[] = [];
    for (const d of delivered) {
      const slot = slots.get(d.slot_id);
      if (!slot) {
        record.push({ slot_id: d.slot_id, quantity: d.quantity, stock_before: null, stock_after: null });
        continue;
      }
      const { stockAfter, toDepot, notBooked } = splitReceipt(slot.stock, d.quantity, slot.capacity, d.ordered);
      await this.repo.setSlotStock(slot.id, { before: slot.stock, after: stockAfter, at: this.clock.now() });
      await this.depot.keepExcess(slot.skuId, toDepot);
      record.push({
        slot_id: d.slot_id,
        quantity: d.quantity,
        stock_before: slot.stock,
        stock_after: stockAfter,
        ...(toDepot > 0 ? { to_depot: toDepot } : {}),
        ...(notBooked > 0 ? { not_booked: notBooked } : {}),
      });
    }
    return record;
  }

  /**
   * Records the lines whose receipt went beyond what they ordered (a `stock.over_delivered` event, in the caller's
   * transaction) and answers a warning per line at `path[i].quantity` (i: the line's index in `record`).
   */
  async recordOverDelivery(runId: string, record: (RunDelivery & { ordered_each?: number })[], path: string, source: 'receipt' | 'platform'): Promise<UcpMessage[]> {
    const over = record.map((r, i) => ({ r, i })).filter(({ r }) => r.ordered_each !== undefined && r.quantity > r.ordered_each);
    if (over.length === 0) return [];
    const lines = over.map(({ r }) => ({
      slot_id: r.slot_id,
      ordered_each: r.ordered_each!,
      delivered: r.quantity,
      into_slot: r.stock_after !== null && r.stock_before !== null ? r.stock_after - Math.max(0, r.stock_before) : 0,
      to_depot: r.to_depot ?? 0,
      not_booked: r.not_booked ?? 0,
    }));
    const unbooked = lines.reduce((t, l) => t + l.not_booked, 0);
    await this.events.record({
      kind: 'stock.over_delivered',
      summary: `replenishment run ${runId}: ${over.length} line(s) received beyond what they ordered; ${unbooked} unit(s) not booked`,
      reasoning:
        `a ${source === 'platform' ? 'platform delivery' : 'receipt'} reported more units than the line ordered; the slot rose at most to its capacity (by at most the order when its capacity is unknown) and the depot took at most what was ordered, ` +
        'so no unchecked figure becomes stock the plan would serve slots from; a person who sees the extra units counts them into the depot (POST /depot/counts, with a reason)',
      data: { run_id: runId, source, lines },
    });
    return over.map(({ r, i }, k) =>
      warning(
        'over_delivered',
        `slot ${r.slot_id}: ${r.quantity} unit(s) received on a line that ordered ${r.ordered_each}; ${lines[k].into_slot} went into the slot, ${lines[k].to_depot} to the depot, ${lines[k].not_booked} were not booked (count them into the depot with a reason if they are there)`,
        `${path}[${i}].quantity`,
      ),
    );
  }

  /** Units of a good that arrived at the warehouse: all go to the depot (inside the caller's transaction). */
  async toDepot(skuId: string, units: number): Promise<void> {
    await this.depot.keepExcess(skuId, units);
  }
}
