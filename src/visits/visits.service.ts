import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import type { UcpMessage } from '../common/envelope/envelope';
import { toPlus8 } from '../common/time';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DepotService } from '../replenishment/depot/depot.service';
import { PlanService } from '../replenishment/plan/plan.service';
import type { PlanLine } from '../replenishment/plan/plan.types';
import { stopReason } from './route-reasons.rules';
import { routePicks, totalsByGood, type GoodTotal, type PickSlot, type RoutePick } from './route-picks.rules';
import { DEFAULT_MARGIN_SHARE, ROUTE_HORIZON_DAYS, ROUTE_MAX_CYCLE_DAYS, unitMarginFen, weekdayIndexes } from './route-settings.rules';
import { RouteSettingsService } from './route-settings.service';
import { lossFen, planRoute, type RouteMachine, type StopAssessment } from './route.rules';
import { VisitsRepository } from './visits.repository';

export interface RouteSlotRow extends PickSlot {
  capacity: number | null;
  measured: boolean;
  coverDays: number | null;
  priceFen: number;
}

export interface RouteMachineResult {
  id: string;
  name: string;
  site: string;
  cycleDays: number;
  soldOutSlots: number;
  lostIfSkippedFen: number;
  slots: RouteSlotRow[];
  picks: RoutePick[];
}

export interface RouteStopResult {
  stop: StopAssessment;
  reason: string;
  machines: RouteMachineResult[];
}

export interface RouteDay {
  computedAt: Date;
  day: string;
  settings: { stopsPerDay: number; stopCostFen: number; horizonDays: number; defaultMarginShare: number };
  route: RouteStopResult[];
  skipped: RouteStopResult[];
  van: GoodTotal[];
  warehouseShort: GoodTotal[];
  /** The plan's warnings (a supplier catalog that could not be read: margins fall back to the stated share). */
  messages: UcpMessage[];
}

const r2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The day's route (docs/replenishment-policy.md, "The route day"): the plan's demand per slot (the plan runs build
 * on, so both screens read one demand), the machines' route settings, slot prices and labels, and what the warehouse
 * holds; route.rules chooses the stops, route-picks.rules what to bring. Reads only.
 */
@Injectable()
export class VisitsService {
  constructor(
    private readonly plans: PlanService,
    private readonly repo: VisitsRepository,
    private readonly settings: RouteSettingsService,
    private readonly depot: DepotService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async today(): Promise<RouteDay> {
    const now = this.clock.now();
    const day = toPlus8(now).slice(0, 10);
    // The default fulfiller's plan (the fulfiller registry decides which): its supplier prices give each good's cost.
    const plan = await this.plans.compute({ now });
    const [machinesSettings, labels, held] = [await this.settings.machines(), await this.repo.slotLabels(), await this.depot.available()];
    const label = new Map(labels.map((l) => [l.id, l]));
    const linesOf = new Map<string, PlanLine[]>();
    for (const l of plan.lines) linesOf.set(l.locationId, [...(linesOf.get(l.locationId) ?? []), l]);
    const slotRows = new Map<string, RouteSlotRow[]>();
    const machines: RouteMachine[] = machinesSettings.map(({ location, settings }) => {
      const lines = linesOf.get(location.id) ?? [];
      const rows = lines.map((l) => slotRow(l, label.get(l.slotId)));
      slotRows.set(location.id, rows);
      return {
        id: location.id,
        name: location.name,
        site: settings.site,
        stopCostFen: settings.stopCostFen,
        visitDays: weekdayIndexes(settings.visitDays),
        slots: lines.map((l, i) => ({
          slotId: l.slotId,
          stock: Math.max(0, l.stock),
          capacity: l.capacity,
          ratePerDay: l.demand.ratePerDay,
          sigmaDaily: l.demand.sigmaDaily,
          marginFen: unitMarginFen(rows[i].priceFen, eachCostFen(l)),
          // What the warehouse holds of the good, up to the slot's room (machines are valued as if each had it all).
          bringToday: Math.min(Math.max(0, held.get(l.skuId) ?? 0), l.capacity === null ? Infinity : Math.max(0, l.capacity - Math.max(0, l.stock))),
        })),
      };
    });
    const z = plan.policy.serviceLevelZ;
    const stopsPerDay = this.config.route.stopsPerDay;
    const { visit, skip } = planRoute(machines, day, { stopsPerDay, horizonDays: ROUTE_HORIZON_DAYS, maxCycleDays: ROUTE_MAX_CYCLE_DAYS, z });
    const order = visit.flatMap((s) => s.machines.map((m) => ({ id: m.id, cycleDays: s.cycleDays, slots: slotRows.get(m.id) ?? [] })));
    const picks = routePicks(order, held, z);
    const result = (s: StopAssessment): RouteStopResult => ({
      stop: s,
      reason: stopReason(s, day, stopsPerDay),
      machines: s.machines.map((m) => {
        const rows = slotRows.get(m.id) ?? [];
        return {
          id: m.id,
          name: m.name,
          site: m.site,
          cycleDays: s.cycleDays,
          soldOutSlots: rows.filter((r) => r.stock <= 0 && r.ratePerDay > 0).length,
          // A site's machines share its stop; each shows its own slots' loss over the same days.
          lostIfSkippedFen: s.machines.length === 1 ? s.lostIfSkippedFen : Math.round(lossFen(m.slots, s.nextPossible ?? 7)),
          slots: rows,
          picks: picks.get(m.id) ?? [],
        };
      }),
    });
    const all = [...picks.values()].flat();
    return {
      computedAt: now,
      day,
      settings: { stopsPerDay, stopCostFen: this.config.route.stopCostFen, horizonDays: ROUTE_HORIZON_DAYS, defaultMarginShare: DEFAULT_MARGIN_SHARE },
      route: visit.map(result),
      skipped: skip.map(result),
      van: totalsByGood(all, 'units'),
      warehouseShort: totalsByGood(all, 'short'),
      messages: plan.messages,
    };
  }
}

/** Each cost of the good from the plan's supplier price (a box price over its units), or null when unknown. */
function eachCostFen(l: PlanLine): number | null {
  if (l.unitPriceFen === null) return null;
  return l.unit === 'BX' && l.contains > 0 ? l.unitPriceFen / l.contains : l.unitPriceFen;
}

function slotRow(l: PlanLine, label: { position: string; priceFen: number } | undefined): RouteSlotRow {
  const rate = l.demand.ratePerDay;
  return {
    slotId: l.slotId,
    skuId: l.skuId,
    title: l.title,
    position: label?.position ?? l.vendorSku,
    stock: l.stock,
    capacity: l.capacity,
    ratePerDay: rate,
    sigmaDaily: l.demand.sigmaDaily,
    measured: l.demand.measured,
    coverDays: l.stock <= 0 ? 0 : rate > 0 ? r2(l.stock / rate) : null,
    priceFen: label?.priceFen ?? 0,
  };
}
