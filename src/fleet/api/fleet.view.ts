/** The UCP JSON of the fleet overview, rendered at the edge (declared type: the response class). */
import { cny } from '../../common/money';
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import { toPlus8, toPlus8OrNull } from '../../common/time';
import type { FleetRow } from '../fleet.repository';
import type { FleetResponse, FleetMachineView, FleetSalesView } from './fleet.responses';
import { fillPercent } from '../fleet.rules';
import type { FleetOverview } from '../fleet.service';

const sales = (orders: number, fen: number): FleetSalesView => ({ orders, total: cny(fen) });

export function renderFleetMachine(r: FleetRow): FleetMachineView {
  return {
    id: r.id,
    name: r.name,
    namespace: r.namespace,
    slots: r.slots,
    sold_out_slots: r.sold_out,
    stock: r.stock,
    capacity: r.capacity,
    fill_percent: fillPercent(r.stock_with_capacity, r.capacity),
    last_synced_at: toPlus8OrNull(r.last_synced_at),
    sales_today: sales(r.today_count, r.today_fen),
    sales_7d: sales(r.week_count, r.week_fen),
  };
}

export function renderFleet(f: FleetOverview): ResponseBody<FleetResponse> {
  return {
    read_at: toPlus8(f.readAt),
    totals: { sales_today: sales(f.today.orders, f.today.fen), sales_7d: sales(f.week.orders, f.week.fen) },
    machines: f.machines.map(renderFleetMachine),
  };
}
