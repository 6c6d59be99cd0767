import { Inject, Injectable } from '@nestjs/common';
import { PlanService } from '../replenishment/plan/plan.service';
import type { PlanLine } from '../replenishment/plan/plan.types';
import type { PickSource } from './pick-sources';
import { PICK_SOURCES } from './pick-sources';
import { VisitsRepository } from './visits.repository';
import { assessMachine, depotOffers, pickList, preKit, rankVisits, type PickLine, type PickOffer, type PreKitLine, type VisitAssessment } from './visits.rules';

export interface MachineVisit extends VisitAssessment {
  picks: PickLine[];
  preKit: PreKitLine[];
  /** Slot rows for the answer: stock, capacity and demand beside the cover. */
  slots: { slotId: string; skuId: string; title: string; stock: number; capacity: number | null; ratePerDay: number; measured: boolean }[];
}

export interface Visits {
  computedAt: Date;
  machines: MachineVisit[];
  /** Pre-kit over the machines that need a visit: what goes in the van. */
  van: PreKitLine[];
  salesWindowDays: number;
}

/**
 * Visits (issue 30): the plan's demand and quantities per slot (read with the machine platform's traits, so no
 * supplier catalog is called), the roster's last sync and last delivery, and the pick sources' offers, ranked by
 * visits.rules.
 */
@Injectable()
export class VisitsService {
  constructor(
    private readonly plans: PlanService,
    private readonly repo: VisitsRepository,
    @Inject(PICK_SOURCES) private readonly sources: PickSource[],
  ) {}

  async today(now = new Date()): Promise<Visits> {
    const plan = await this.plans.compute({ fulfiller: 'machine_restock', now });
    const locations = await this.repo.locations();
    const offers: PickOffer[] = [];
    for (const s of this.sources) offers.push(...(await s.offers()));
    // Then the depot: units the plan serves from it (goods already bought by an open run come first).
    offers.push(...depotOffers(plan.lines));
    const byLocation = new Map<string, PlanLine[]>();
    for (const l of plan.lines) byLocation.set(l.locationId, [...(byLocation.get(l.locationId) ?? []), l]);

    const machines = locations.map((loc): MachineVisit => {
      const lines = byLocation.get(loc.id) ?? [];
      const slots = lines.map((l) => ({
        slotId: l.slotId,
        skuId: l.skuId,
        title: l.title,
        stock: l.stock,
        capacity: l.capacity,
        ratePerDay: l.demand.ratePerDay,
        measured: l.demand.measured,
      }));
      const assessed = assessMachine({ id: loc.id, name: loc.name, slots, lastSyncedAt: loc.lastSyncedAt, lastDeliveredAt: loc.lastDeliveredAt }, now);
      const slotIds = new Set(slots.map((s) => s.slotId));
      const picks = pickList(
        lines.map((l) => ({ slotId: l.slotId, skuId: l.skuId, title: l.title, plannedUnits: l.quantityEach })),
        offers.filter((o) => slotIds.has(o.slotId)),
      );
      return { ...assessed, slots, picks, preKit: preKit(picks) };
    });
    const ranked = rankVisits(machines);
    return {
      computedAt: now,
      machines: ranked,
      van: preKit(ranked.filter((m) => m.needsVisit).flatMap((m) => m.picks)),
      salesWindowDays: plan.policy.salesWindowDays,
    };
  }
}
