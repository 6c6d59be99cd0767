/** Response models of the visits (OpenAPI only). */
import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Int } from '../common/api-docs';
import { UcpEnvelope } from '../common/envelope.responses';

export class VisitWeightsView {
  sold_out_slot: number;
  low_cover_slot: number;
  fill_per_10_percent_empty: number;
  delivery_per_day: number;
  delivery_max_days: number;
  stale_data: number;
  never_synced: number;
}

export class VisitRulesView {
  /** A slot with fewer days of cover than this runs low. */
  low_cover_days: number;
  /** A machine under this fill needs a visit. */
  low_fill_percent: number;
  /** A machine not delivered to for this many days needs a visit. */
  delivery_due_days: number;
  /** Data older than this is stale. */
  stale_hours: number;
  /** Points per signal in the score. */
  weights: VisitWeightsView;
  /** The demand rates are measured over this many days. */
  @Int({ minimum: 1 })
  sales_window_days: number;
}

export class VisitReasonView {
  @ApiProperty({ enum: ['sold_out', 'low_cover', 'low_fill', 'delivery_due', 'data_stale', 'never_synced'] })
  code: string;
  /** The reason in words. */
  text: string;
}

export class VisitInputsView {
  @Int({ minimum: 0 })
  slots: number;
  @Int({ minimum: 0 })
  sold_out_slots: number;
  @Int({ minimum: 0, description: 'Slots with stock but fewer days of cover than `rules.low_cover_days`.' })
  low_cover_slots: number;
  /** The fewest days of cover over the slots (0 when one is sold out); null when nothing sells. */
  min_cover_days: number | null;
  /** Stock over capacity in percent; null when no capacity is known. */
  fill_percent: number | null;
  /** Whole days since the last delivered run that held this machine; null when none was recorded. */
  days_since_delivery: number | null;
  /** Hours since the last inventory sync; null when never synced. */
  data_age_hours: number | null;
}

export class VisitSlotView {
  slot_id: string;
  sku_id: string;
  /** Product name. */
  title: string;
  @Int()
  stock: number;
  capacity: number | null;
  /** Units sold per day over the sales window (or the fallback rate when `demand_measured` is false). */
  rate_per_day: number;
  demand_measured: boolean;
  /** Stock over the demand rate; null when nothing sells. */
  cover_days: number | null;
}

export class PickFromView {
  @ApiProperty({ enum: ['open_run', 'depot'] })
  kind: string;
  run_id?: string;
  run_status?: string;
}

export class VisitPickView {
  slot_id: string;
  sku_id: string;
  title: string;
  @Int({ minimum: 1, description: 'Units to bring for this slot.' })
  units: number;
  @Int({ description: "Units the plan says the slot needs now (order-up-to target less stock)." })
  planned_units: number;
  /** Where the units come from; null when nothing brings them yet (order them or take them from stock). */
  @ApiProperty({ type: PickFromView, nullable: true })
  from: PickFromView | null;
}

export class PreKitView {
  sku_id: string;
  title: string;
  @Int({ minimum: 1 })
  units: number;
  @Int({ minimum: 1 })
  slots: number;
}

export class MachineVisitView {
  @Int({ minimum: 1 })
  rank: number;
  id: string;
  name: string;
  needs_visit: boolean;
  score: number;
  /** Why it needs a visit, most urgent first (empty when it does not). */
  reasons: VisitReasonView[];
  /** The ranking's inputs. */
  inputs: VisitInputsView;
  slots: VisitSlotView[];
  /** Per slot, units to bring and from where. */
  picks: VisitPickView[];
  /** Units per product for this machine. */
  pre_kit: PreKitView[];
}

export class VisitsResponse extends UcpEnvelope {
  @DateTime()
  computed_at: string;
  rules: VisitRulesView;
  @Int({ minimum: 0 })
  needing_visit: number;
  /** Every machine, those needing a visit first, highest score first. */
  machines: MachineVisitView[];
  /** Units per product over the machines that need a visit: what goes in the van. */
  van: PreKitView[];
}
