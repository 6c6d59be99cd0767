import { Injectable, Logger } from '@nestjs/common';
import { UcpMessage, warning } from '../../common/envelope/envelope';
import { DemandEstimate, estimateDemand } from '../../forecasting/demand/demand.rules';
import { FORECASTING_DEFAULTS } from '../../forecasting/forecasting.defaults';
import { DemandRepository, SlotAggregateRow } from '../../forecasting/demand/demand.repository';
import { LeadTimeService } from '../../forecasting/lead-time.service';
import { LeadTime } from '../../forecasting/lead-time.rules';
import { DepotService } from '../depot/depot.service';
import type { FulfillerTraits } from '../fulfillers/run-fulfiller';
import { RunFulfillers } from '../fulfillers/run-fulfillers';
import { CadenceRepository } from './cadence.repository';
import { fleetVisitGap, medianGapDays, nextVisitIn, plus8Day, runReviewPeriod, slotReviewPeriod, type MachineVisitCadence, type ReviewSource } from './cadence.rules';
import { expectedToDepot, onOrderBySlot, SlotOnOrder } from './inventory-position.rules';
import { OnOrderRepository } from './on-order.repository';
import { Resolution } from '../supply-resolution/resolution.rules';
import { SupplyResolutionService } from '../supply-resolution/supply-resolution.service';

const DAY_MS = 86_400_000;

/** What a plan asks for: the slots of one location (or all), the fulfiller's traits, the stand-in supplier. */
export interface PlanInputsQuery {
  location?: string;
  /** First day (+08:00) of the sales window. */
  windowStartDay: string;
  traits: Pick<FulfillerTraits, 'sourcing' | 'leadSamples'>;
  /** The simulated supplier's namespace when it fills the run (it stands in for the resolved supplier), else null. */
  sim: string | null;
  /** A supplier catalog that cannot be read fails the plan (run creation) instead of warning. */
  requireCatalog: boolean;
  now: Date;
  /** SERVICE_REVIEW_PERIOD_DAYS: R until runs have been placed on enough days to measure it. */
  reviewSettingDays: number;
}

/** Everything a plan reads about its slots, before the policy is applied. */
export interface PlanInputs {
  rows: SlotAggregateRow[];
  demandOf: Map<string, DemandEstimate>;
  onOrder: Map<string, SlotOnOrder>;
  /** Units left at the depot, by sku: slots take them in cover order before anything is bought. */
  depotLeft: Map<string, number>;
  /** Box remainders of placed runs on their way to the depot, by sku. */
  incomingLeft: Map<string, number>;
  /** Resolutions by machine sku id; null for machine restock (the platform restocks its own good). */
  resolved: Map<string, Resolution | null> | null;
  /** The namespace a slot's good is ordered from, or null when nobody sells it. */
  orderedFrom: (r: SlotAggregateRow) => string | null;
  /** One lead time per fulfiller in use. */
  leadByFulfiller: Map<string, LeadTime>;
  /** Warnings of the reads (`catalog_unavailable`). */
  messages: UcpMessage[];
  /** R of the plan (measured run cadence, or the setting) and of each slot (for its machine's coming visits, cadence.rules). */
  review: { days: number; source: ReviewSource; ofLocation: (locationId: string, leadDays: number) => number };
}

/**
 * The reads of a plan, slot by slot: demand (SQL aggregates + demand.rules), what placed runs still bring (on order
 * and on the way to the depot), the depot's units, the supplier each good resolves to through the SKU registry, and
 * the lead time of each fulfiller in use. PlanService applies the policy to them.
 */
@Injectable()
export class PlanInputsService {
  private readonly logger = new Logger(PlanInputsService.name);
  constructor(
    private readonly demand: DemandRepository,
    private readonly onOrder: OnOrderRepository,
    private readonly depot: DepotService,
    private readonly resolution: SupplyResolutionService,
    private readonly leadTimes: LeadTimeService,
    private readonly cadence: CadenceRepository,
  ) {}

  async read(q: PlanInputsQuery): Promise<PlanInputs> {
    const d = FORECASTING_DEFAULTS;
    const { sourcing, leadSamples } = q.traits;
    const sim = q.sim;
    const messages: UcpMessage[] = [];
    const rows = await this.demand.slotAggregates(q.windowStartDay, d.salesWindowDays, q.location);
    const demandOf = new Map(rows.map((r) => [r.slotId, estimateDemand({ ...r, windowDays: d.salesWindowDays, stockNow: r.stock }, d)]));
    // Inventory position: what placed runs will still bring is counted as if it were on the shelf.
    const openLines = await this.onOrder.openLines(RunFulfillers.kindsWith('buysThroughPurchaseOrders'), q.location);
    const onOrder = onOrderBySlot(openLines);
    // The depot serves slots before anything is bought, in the plan's slot order, until its units run out.
    const depotLeft = await this.depot.available([...new Set(rows.map((r) => r.skuId))]);

    // Supplier fulfillers: every good resolved through the SKU registry (purchasable_from, supplier choice).
    const resolved = sourcing === 'machine_platform' ? null : await this.resolve(rows.map((r) => r.skuId), q.requireCatalog, messages);

    // Lead times: one per fulfiller in use (the simulated supplier; each resolved supplier; each machine platform).
    const orderedFrom = (r: SlotAggregateRow): string | null =>
      sourcing === 'machine_platform' ? r.namespace : sim ?? resolved?.get(r.skuId)?.offer.namespace ?? null;
    const leadByFulfiller = new Map<string, LeadTime>();
    for (const ns of new Set(sim ? [sim] : rows.map(orderedFrom))) {
      if (ns !== null) leadByFulfiller.set(ns, await this.leadTimes.of(leadSamples, ns));
    }
    // Box remainders of placed runs on their way to the depot: slots take them before anything more is bought.
    const slotsNow = new Map(rows.map((r) => [r.slotId, { stock: r.stock, capacity: r.capacity, ratePerDay: demandOf.get(r.slotId)!.ratePerDay }]));
    const leadDays = Math.max(0, ...[...leadByFulfiller.values()].map((l) => l.days), d.statedLeadTimeDays);
    const incomingLeft = expectedToDepot(openLines, slotsNow, leadDays);
    return { rows, demandOf, onOrder, depotLeft, incomingLeft, resolved, orderedFrom, leadByFulfiller, messages, review: await this.review(q.now, q.reviewSettingDays) };
  }

  /** The review periods actually used: runs placed over the last 28 days, visits over the last 42. */
  private async review(now: Date, setting: number): Promise<PlanInputs['review']> {
    const runs = runReviewPeriod(setting, medianGapDays((await this.cadence.placedTimes(new Date(now.getTime() - 28 * DAY_MS), now)).map(plus8Day)));
    const visits = await this.cadence.visitTimes(new Date(now.getTime() - 42 * DAY_MS), now);
    const days = new Map([...visits.entries()].map(([loc, times]) => [loc, times.map(plus8Day)]));
    const gapOf = new Map([...days.entries()].map(([loc, d]) => [loc, medianGapDays(d)]));
    const fleetGap = fleetVisitGap([...gapOf.values()]);
    const today = plus8Day(now);
    const cadenceOf = (loc: string): MachineVisitCadence | null => {
      const gap = gapOf.get(loc) ?? fleetGap;
      return gap === null ? null : { gapDays: gap, nextInDays: nextVisitIn(today, days.get(loc)?.at(-1) ?? null, gap) };
    };
    return { ...runs, ofLocation: (loc, leadDays) => slotReviewPeriod(runs.days, leadDays, cadenceOf(loc)) };
  }

  /**
   * Resolutions by machine sku id. A supplier catalog that cannot be read is a warning on the plan (its offers are
   * unknown), or the run's error: a run never silently lacks the goods of an unreachable supplier.
   */
  private async resolve(ids: string[], required: boolean, messages: UcpMessage[]): Promise<Map<string, Resolution | null>> {
    const { byId, unavailable } = await this.resolution.resolve(ids);
    if (unavailable.length && required) throw unavailable[0].error;
    for (const u of unavailable) {
      this.logger.warn(`plan: catalog of ${u.namespace} unavailable: ${u.error.message}`);
      messages.push(
        warning(
          'catalog_unavailable',
          `the catalog of ${u.namespace} could not be read (${u.error.message}); goods only it sells show no supplier, quantities are in each and costs are unknown`,
          '$.slots',
        ),
      );
    }
    return byId;
  }
}
