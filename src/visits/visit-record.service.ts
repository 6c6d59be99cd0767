import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { Errors } from '../common/errors/errors';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { DepotService } from '../replenishment/depot/depot.service';
import type { VisitSlotRecord } from './machine-visit.entity';
import { VisitsRepository } from './visits.repository';

export interface RecordedVisit {
  id: string;
  locationId: string;
  name: string;
  recordedAt: Date;
  unitsLoaded: number;
  unitsReturned: number;
  slots: (VisitSlotRecord & { position: string; title: string })[];
}

/**
 * A driver's visit: what went into each slot from the van (the slot rises, the depot falls, in one transaction, at
 * most the slot's room and what the depot holds) and what came back (recorded: it never left the depot's books).
 * One `visit.recorded` event per visit.
 */
@Injectable()
export class VisitRecordService {
  constructor(
    private readonly repo: VisitsRepository,
    private readonly depot: DepotService,
    private readonly events: EventsService,
    private readonly tx: Tx,
    private readonly clock: Clock,
  ) {}

  async record(locationId: string, slots: { slot_id: string; loaded: number; returned?: number }[], note: string | undefined, confirm: unknown): Promise<RecordedVisit> {
    if (confirm !== true) throw Errors.confirmationRequired();
    const labels = new Map((await this.repo.slotLabels(locationId)).map((l) => [l.id, l]));
    const location = await this.repo.location(locationId);
    if (!location) throw Errors.notFound(`location ${locationId}`, '$.location_id');
    slots.forEach((s, i) => {
      if (!labels.has(s.slot_id)) throw Errors.invalid(`$.slots[${i}].slot_id`, `slot ${s.slot_id} is not a slot of ${location.name}`);
    });
    const recordedAt = this.clock.now();
    const id = `visit-${randomUUID()}`;
    const { visit, filled } = await this.tx.run(async () => {
      const loads = slots.filter((s) => s.loaded > 0).map((s) => ({ slot_id: s.slot_id, quantity: s.loaded }));
      const filled = await this.depot.moveIntoSlots(loads, '$.slots');
      const after = new Map(filled.map((f) => [f.slot_id, f]));
      const before = new Map((await this.repo.slotStocks(slots.map((s) => s.slot_id))).map((r) => [r.id, r.stock]));
      const record: VisitSlotRecord[] = slots.map((s) => {
        const f = after.get(s.slot_id);
        return { slot_id: s.slot_id, loaded: s.loaded, returned: s.returned ?? 0, stock_before: f ? f.stock_before : before.get(s.slot_id)!, stock_after: f ? f.stock_after : before.get(s.slot_id)! };
      });
      const unitsLoaded = record.reduce((t, r) => t + r.loaded, 0);
      const unitsReturned = record.reduce((t, r) => t + r.returned, 0);
      await this.repo.insertVisit({ id, locationId, recordedAt, unitsLoaded, unitsReturned, slots: record, note: note ?? null });
      await this.events.record({
        kind: 'visit.recorded',
        summary: `visit to ${location.name}: ${unitsLoaded} unit(s) loaded into ${record.filter((r) => r.loaded > 0).length} slot(s)` + (unitsReturned ? `, ${unitsReturned} brought back` : ''),
        reasoning: 'the driver put goods from the van into the slots: their stock rose and the depot fell by the same units',
        location: locationId,
        data: { visit_id: id, location_id: locationId, units_loaded: unitsLoaded, units_returned: unitsReturned, slots: record },
      });
      return { visit: { id, locationId, name: location.name, recordedAt, unitsLoaded, unitsReturned, slots: record }, filled };
    });
    await this.depot.notifyFilled(filled);
    return { ...visit, slots: visit.slots.map((r) => ({ ...r, position: labels.get(r.slot_id)!.position, title: labels.get(r.slot_id)!.title })) };
  }
}
