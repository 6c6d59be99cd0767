/** The visits answer as the API's JSON (snake_case, times in +08:00). */
import type { ResponseBody } from '../common/envelope.responses';
import { toPlus8 } from '../common/time';
import type { VisitsResponse } from './visits.responses';
import type { PickLine, PreKitLine } from './visits.rules';
import { VISIT_RULES, VISIT_WEIGHTS } from './visits.rules';
import type { Visits } from './visits.service';

const preKitView = (k: PreKitLine) => ({ sku_id: k.skuId, title: k.title, units: k.units, slots: k.slots });

const pickView = (p: PickLine) => ({
  slot_id: p.slotId,
  sku_id: p.skuId,
  title: p.title,
  units: p.units,
  planned_units: p.plannedUnits,
  from: p.origin === null ? null : p.origin.kind === 'open_run' ? { kind: 'open_run' as const, run_id: p.origin.runId, run_status: p.origin.runStatus } : { kind: p.origin.kind },
});

export function renderVisits(v: Visits): ResponseBody<VisitsResponse> {
  return {
    computed_at: toPlus8(v.computedAt),
    rules: {
      low_cover_days: VISIT_RULES.lowCoverDays,
      low_fill_percent: VISIT_RULES.lowFillPercent,
      delivery_due_days: VISIT_RULES.deliveryDueDays,
      stale_hours: VISIT_RULES.staleHours,
      weights: {
        sold_out_slot: VISIT_WEIGHTS.soldOutSlot,
        low_cover_slot: VISIT_WEIGHTS.lowCoverSlot,
        fill_per_10_percent_empty: VISIT_WEIGHTS.fillPer10Percent,
        delivery_per_day: VISIT_WEIGHTS.deliveryPerDay,
        delivery_max_days: VISIT_WEIGHTS.deliveryMaxDays,
        stale_data: VISIT_WEIGHTS.staleData,
        never_synced: VISIT_WEIGHTS.neverSynced,
      },
      sales_window_days: v.salesWindowDays,
    },
    needing_visit: v.machines.filter((m) => m.needsVisit).length,
    machines: v.machines.map((m, i) => ({
      rank: i + 1,
      id: m.id,
      name: m.name,
      needs_visit: m.needsVisit,
      score: m.score,
      reasons: m.reasons.map((r) => ({ code: r.code, text: r.text })),
      inputs: {
        slots: m.inputs.slots,
        sold_out_slots: m.inputs.soldOutSlots,
        low_cover_slots: m.inputs.lowCoverSlots,
        min_cover_days: m.inputs.minCoverDays,
        fill_percent: m.inputs.fillPercent,
        days_since_delivery: m.inputs.daysSinceDelivery,
        data_age_hours: m.inputs.dataAgeHours,
      },
      slots: m.slots.map((s, j) => ({
        slot_id: s.slotId,
        sku_id: s.skuId,
        title: s.title,
        stock: s.stock,
        capacity: s.capacity,
        rate_per_day: s.ratePerDay,
        demand_measured: s.measured,
        cover_days: m.cover[j].coverDays,
      })),
      picks: m.picks.map(pickView),
      pre_kit: m.preKit.map(preKitView),
    })),
    van: v.van.map(preKitView),
  };
}
