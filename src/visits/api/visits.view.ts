/** The route day, visits and route settings as the API's JSON (snake_case, times in +08:00). */
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import { toPlus8 } from '../../common/time';
import { addDays } from '../route.rules';
import type { GoodTotal, RoutePick } from '../route-picks.rules';
import type { MachineRouteSettings } from '../route-settings.rules';
import type { RecordedVisit } from '../visit-record.service';
import type { VisitLocationRow } from '../visits.repository';
import type { MachineRouteSettingsView, RouteMachineView, RouteSettingsResponse, VisitRecordResponse, VisitsResponse } from './visits.responses';
import type { RouteDay, RouteMachineResult, RouteStopResult } from '../visits.service';

const goodView = (g: GoodTotal) => ({ sku_id: g.skuId, title: g.title, units: g.units, slots: g.slots });

const pickView = (p: RoutePick) => ({ slot_id: p.slotId, position: p.position, sku_id: p.skuId, title: p.title, units: p.units, fill_to: p.fillTo, stock: p.stock, short: p.short });

function machineView(m: RouteMachineResult): RouteMachineView {
  return {
    location_id: m.id,
    name: m.name,
    site: m.site,
    cycle_days: m.cycleDays,
    lost_if_skipped_fen: m.lostIfSkippedFen,
    sold_out_slots: m.soldOutSlots,
    slots: m.slots.map((s) => ({
      slot_id: s.slotId,
      position: s.position,
      sku_id: s.skuId,
      title: s.title,
      stock: s.stock,
      capacity: s.capacity,
      rate_per_day: s.ratePerDay,
      demand_measured: s.measured,
      cover_days: s.coverDays,
      price_fen: s.priceFen,
    })),
    picks: m.picks.filter((p) => p.units > 0).map(pickView),
  };
}

export function renderRouteDay(d: RouteDay): ResponseBody<VisitsResponse> {
  const dayOf = (k: number | null) => (k === null ? null : addDays(d.day, k));
  return {
    computed_at: toPlus8(d.computedAt),
    day: d.day,
    settings: {
      stops_per_day: d.settings.stopsPerDay,
      stop_cost_fen: d.settings.stopCostFen,
      horizon_days: d.settings.horizonDays,
      fill_policy: 'cover_until_next_visit',
      default_margin_share: d.settings.defaultMarginShare,
    },
    stops: { planned: d.route.length, capacity: d.settings.stopsPerDay },
    route: d.route.map((r: RouteStopResult, i) => ({
      order: i + 1,
      site: r.stop.site,
      value_fen: r.stop.valueFen,
      lost_if_skipped_fen: r.stop.lostIfSkippedFen,
      stop_cost_fen: r.stop.stopCostFen,
      reason: r.reason,
      machines: r.machines.map(machineView),
    })),
    skipped: d.skipped.flatMap((r) =>
      r.machines.map((m) => ({
        location_id: m.id,
        name: m.name,
        site: m.site,
        decision: r.stop.decision,
        reason: r.reason,
        lost_if_skipped_fen: m.lostIfSkippedFen,
        stop_cost_fen: r.stop.stopCostFen,
        due_day: dayOf(r.stop.dueIn),
        next_possible_visit: dayOf(r.stop.nextPossible),
      })),
    ),
    van: d.van.map(goodView),
    warehouse_short: d.warehouseShort.map(goodView),
  };
}

export function renderVisit(v: RecordedVisit): ResponseBody<VisitRecordResponse> {
  return {
    visit: {
      id: v.id,
      location_id: v.locationId,
      name: v.name,
      recorded_at: toPlus8(v.recordedAt),
      units_loaded: v.unitsLoaded,
      units_returned: v.unitsReturned,
      slots: v.slots.map((s) => ({ slot_id: s.slot_id, position: s.position, title: s.title, loaded: s.loaded, returned: s.returned, stock_before: s.stock_before, stock_after: s.stock_after })),
    },
  };
}

export function renderMachineSettings(m: { location: VisitLocationRow; settings: MachineRouteSettings }): MachineRouteSettingsView {
  return { location_id: m.location.id, name: m.location.name, site: m.settings.site, stop_cost_fen: m.settings.stopCostFen, visit_days: m.settings.visitDays, custom: m.settings.custom };
}

export function renderRouteSettings(defaults: { stopCostFen: number; stopsPerDay: number; horizonDays: number }, machines: { location: VisitLocationRow; settings: MachineRouteSettings }[]): ResponseBody<RouteSettingsResponse> {
  return { defaults: { stop_cost_fen: defaults.stopCostFen, stops_per_day: defaults.stopsPerDay, horizon_days: defaults.horizonDays }, machines: machines.map(renderMachineSettings) };
}
