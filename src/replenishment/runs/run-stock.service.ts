import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { DepotService } from '../depot/depot.service';
import { splitDelivery } from '../depot/depot.rules';
import { RunDelivery } from './replenishment-run.entity';
import { RunsRepository } from './runs.repository';

/** Stock rising by what a run delivered, whoever delivered it (a person receiving, or the machine platform). */
@Injectable()
export class RunStockService {
  constructor(
    private readonly repo: RunsRepository,
    private readonly depot: DepotService,
    private readonly clock: Clock,
  ) {}

  /**
   * Raises each delivered slot's stock (each), capped at its capacity when known; what the slot cannot take goes to
   * the depot (box rounding, over-delivery). The record of what changed. Runs inside the caller's transaction.
   */
  async raiseStock(delivered: { slot_id: string; quantity: number }[]): Promise<RunDelivery[]> {
    const slots = new Map((await this.repo.slotsForUpdate([...new Set(delivered.map((d) => d.slot_id))])).map((s) => [s.id, s]));
    const record: RunDelivery[] = [];
    for (const d of delivered) {
      const slot = slots.get(d.slot_id);
      if (!slot) {
        record.push({ slot_id: d.slot_id, quantity: d.quantity, stock_before: null, stock_after: null });
        continue;
      }
      const { stockAfter, toDepot } = splitDelivery(slot.stock, d.quantity, slot.capacity);
      await this.repo.setSlotStock(slot.id, { before: slot.stock, after: stockAfter, at: this.clock.now() });
      await this.depot.keepExcess(slot.skuId, toDepot);
      record.push({ slot_id: d.slot_id, quantity: d.quantity, stock_before: slot.stock, stock_after: stockAfter, ...(toDepot > 0 ? { to_depot: toDepot } : {}) });
    }
    return record;
  }

  /** Units of a good that arrived at the warehouse: all go to the depot (inside the caller's transaction). */
  async toDepot(skuId: string, units: number): Promise<void> {
    await this.depot.keepExcess(skuId, units);
  }
}
