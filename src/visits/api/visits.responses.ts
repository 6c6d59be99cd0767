/** Response models of the route day (OpenAPI only). */
import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Int } from '../../common/envelope/api-docs';
import { UcpEnvelope } from '../../common/envelope/envelope.responses';

export class RouteDaySettingsView {
  @Int({ minimum: 1 })
  stops_per_day: number;
  @Int({ minimum: 0, description: 'What a stop costs (fen) unless a machine says otherwise.' })
  stop_cost_fen: number;
  @Int({ minimum: 1, description: 'Days the route looks ahead.' })
  horizon_days: number;
  @ApiProperty({ enum: ['cover_until_next_visit'], description: 'Each visited slot is filled to last until its next planned visit (with safety stock), capped at capacity.' })
  fill_policy: 'cover_until_next_visit';
  /** Margin share of the price assumed for a good no supplier prices. */
  default_margin_share: number;
}

export class RouteSlotView {
  slot_id: string;
  /** The slot's label on the machine (the platform's, else the product code). */
  position: string;
  sku_id: string;
  title: string;
  @Int()
  stock: number;
  @Int({ nullable: true })
  capacity: number | null;
  rate_per_day: number;
  demand_measured: boolean;
  /** Stock over the demand rate; 0 when sold out; null when nothing sells. */
  cover_days: number | null;
  @Int({ minimum: 0 })
  price_fen: number;
}

export class RoutePickView {
  slot_id: string;
  position: string;
  sku_id: string;
  title: string;
  @Int({ minimum: 0, description: 'Units to bring from the warehouse for this slot.' })
  units: number;
  @Int({ minimum: 0, description: 'The level the slot is filled to.' })
  fill_to: number;
  @Int()
  stock: number;
  @Int({ minimum: 0, description: 'Units the slot should get that the warehouse does not hold.' })
  short: number;
}

export class RouteMachineView {
  location_id: string;
  name: string;
  site: string;
  @Int({ minimum: 1, description: 'Planned days until the visit after this one.' })
  cycle_days: number;
  @Int({ minimum: 0, description: 'Margin (fen) this machine is expected to lose if its stop is skipped until its next possible visit.' })
  lost_if_skipped_fen: number;
  @Int({ minimum: 0 })
  sold_out_slots: number;
  slots: RouteSlotView[];
  picks: RoutePickView[];
}

export class RouteStopView {
  @Int({ minimum: 1 })
  order: number;
  /** Machines at one site share a stop. */
  site: string;
  @Int({ description: 'Margin the visit saves today less the stop cost the wait would save (fen); the route is ordered by it.' })
  value_fen: number;
  @Int({ minimum: 0 })
  lost_if_skipped_fen: number;
  @Int({ minimum: 0 })
  stop_cost_fen: number;
  /** Why it is visited today, in words, with the figures. */
  reason: string;
  machines: RouteMachineView[];
}

export class RouteSkipView {
  location_id: string;
  name: string;
  site: string;
  @ApiProperty({ enum: ['not_due', 'not_a_visit_day', 'over_capacity', 'nothing_sells', 'nothing_to_bring'] })
  decision: string;
  /** Why it is not visited today, in words, with the figures. */
  reason: string;
  @Int({ minimum: 0 })
  lost_if_skipped_fen: number;
  @Int({ minimum: 0 })
  stop_cost_fen: number;
  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'The first day within the horizon on which a visit pays.' })
  due_day: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true })
  next_possible_visit: string | null;
}

export class GoodTotalView {
  sku_id: string;
  title: string;
  @Int({ minimum: 1 })
  units: number;
  @Int({ minimum: 1 })
  slots: number;
}

export class RouteStopsView {
  @Int({ minimum: 0 })
  planned: number;
  @Int({ minimum: 1 })
  capacity: number;
}

export class VisitsResponse extends UcpEnvelope {
  @DateTime()
  computed_at: string;
  @ApiProperty({ type: String, format: 'date', description: "The service's +08:00 day." })
  day: string;
  settings: RouteDaySettingsView;
  stops: RouteStopsView;
  /** Today's stops, best first. */
  route: RouteStopView[];
  /** Machines not visited today, those due soonest first. */
  skipped: RouteSkipView[];
  /** What goes in the van: units per good over today's route, from the warehouse. */
  van: GoodTotalView[];
  /** Units today's route should load that the warehouse does not hold. */
  warehouse_short: GoodTotalView[];
}

export class VisitSlotResultView {
  slot_id: string;
  position: string;
  title: string;
  @Int({ minimum: 0 })
  loaded: number;
  @Int({ minimum: 0 })
  returned: number;
  @Int()
  stock_before: number;
  @Int()
  stock_after: number;
}

export class VisitView {
  id: string;
  location_id: string;
  name: string;
  @DateTime()
  recorded_at: string;
  @Int({ minimum: 0 })
  units_loaded: number;
  @Int({ minimum: 0 })
  units_returned: number;
  slots: VisitSlotResultView[];
}

export class VisitRecordResponse extends UcpEnvelope {
  visit: VisitView;
}

export class MachineRouteSettingsView {
  location_id: string;
  name: string;
  site: string;
  @Int({ minimum: 0 })
  stop_cost_fen: number;
  @ApiProperty({ enum: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], isArray: true })
  visit_days: string[];
  /** True when the machine has settings of its own. */
  custom: boolean;
}

export class RouteDefaultsView {
  @Int({ minimum: 0 })
  stop_cost_fen: number;
  @Int({ minimum: 1 })
  stops_per_day: number;
  @Int({ minimum: 1 })
  horizon_days: number;
}

export class RouteSettingsResponse extends UcpEnvelope {
  defaults: RouteDefaultsView;
  machines: MachineRouteSettingsView[];
}

export class MachineRouteSettingsResponse extends UcpEnvelope {
  machine: MachineRouteSettingsView;
}
