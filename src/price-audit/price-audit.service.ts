import { Injectable } from '@nestjs/common';
import { toPlus8 } from '../common/time';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { PriceAuditFlag, PriceAuditRepository } from './price-audit.repository';
import { yuanText } from '../common/money';
import { auditChanges } from './price-audit.rules';

/**
 * After each inventory sync (SyncService calls `afterSync` with the machines it read): a slot whose machine price
 * differs from the last price the service set or approved is flagged on its machine and recorded as a
 * `price.mismatch` event, once per distinct pair of prices; a flag clears when the prices agree again.
 */
@Injectable()
export class PriceAuditService {
  constructor(
    private readonly repo: PriceAuditRepository,
    private readonly tx: Tx,
    private readonly events: EventsService,
  ) {}

  async afterSync(locations: string[]): Promise<number> {
    if (!locations.length) return 0;
    return this.tx.run(async () => {
      const { raise, clear } = auditChanges(await this.repo.mismatches(locations), await this.repo.flags(locations));
      for (const m of raise) {
        await this.repo.raise(m);
        await this.events.record({
          kind: 'price.mismatch',
          summary: `${m.title} at ${m.locationId} sells at ${yuanText(m.machineFen)} on the machine; the service last set ${yuanText(m.serviceFen)}`,
          reasoning: `the inventory sync read a price that differs from the last price the service set or approved (${toPlus8(m.setAt)}): it was changed at the machine or by someone else`,
          location: m.locationId,
          data: { slot_id: m.slotId, item: m.itemId, machine_fen: m.machineFen, service_fen: m.serviceFen },
        });
      }
      await this.repo.clear(clear);
      return raise.length;
    });
  }

  /** The flags (of one machine, or all), newest first, at most 500. */
  list(location?: string): Promise<PriceAuditFlag[]> {
    return this.repo.list(location);
  }
}
