/**
 * A run's lines in the operator's words: the machine by name and the slot by position; the units for this slot and
 * the box they come from when boxes are shared between slots (the plan orders each good once, rounded up to the box:
 * two slots needing 10 and 14 share one box of 24, never two boxes); what arrived or was received.
 */
import type { Schemas } from '../api';
import { yuan } from '../format';
import type { Run } from '../route-api';
import { useServiceDay, dayWhen } from '../service-day';
import { positionOf, type Names } from '../slot-names';

type Line = Schemas['RunLineView'];
type Delivered = Schemas['RunDeliveredView'];

const units = (n: number) => (n === 1 ? '1 unit' : `${n} units`);
const boxes = (n: number, contains: number) => `${n} ${n === 1 ? 'box' : 'boxes'} of ${contains}`;

/** What a run or plan line orders per slot: its unit, box size, units and the good it is bought as. */
type Ordered = { unit: 'EA' | 'BX'; contains: number; ordered_each: number; quantity_each: number; item: { id: string }; supply?: { item: { id: string } } | null };

/**
 * "6 for this slot, from 1 box of 24 shared with 3 other slots" (boxes: the good's needs summed, rounded up to the box
 * once, as the supplier order is), or "6 units" (ordered each). A run line's units are its `ordered_each` (its share
 * of the boxes); a plan line's its need (`quantity_each`: the plan's own `ordered_each` counts whole boxes per slot).
 */
export function boxText<L extends Ordered>(l: L, lines: L[], each: (x: L) => number = (x) => x.ordered_each): string {
  if (l.unit !== 'BX' || l.contains <= 1) return units(each(l));
  const good = (x: L) => x.supply?.item.id ?? x.item.id;
  const same = lines.filter((x) => good(x) === good(l) && x.unit === 'BX' && x.contains === l.contains);
  const count = Math.ceil(same.reduce((t, x) => t + x.quantity_each, 0) / l.contains);
  const others = same.length - 1;
  return `${each(l)} for this slot, from ${boxes(count, l.contains)}${others > 0 ? ` shared with ${others === 1 ? '1 other slot' : `${others} other slots`}` : ''}`;
}

export function lineName(l: Line, names: Names): string {
  return `${names.machine(l.location)} ${positionOf(l)} ${l.title}`;
}

function outcome(run: Run, slot: string, today: string | null): string {
  const d: Delivered | undefined = run.delivered?.find((x) => x.slot_id === slot);
  if (!d) return run.status === 'placed' ? 'on order' : '–';
  if (d.closed) return `closed, ${d.shortfall ?? 0} never came`;
  const short = d.shortfall ? `, ${d.shortfall} short` : '';
  const at = d.received_at ? ` ${dayWhen(d.received_at, today)}` : '';
  if (d.arrived) return `${units(d.quantity)} arrived at the warehouse${at}${short}`;
  const depot = d.to_depot ? ` (${d.to_depot} kept in the warehouse)` : '';
  const stock = d.stock_before !== null && d.stock_after !== null ? `, stock ${d.stock_before} → ${d.stock_after}` : '';
  return `${units(d.quantity)} received${at}${stock}${depot}${short}`;
}

export function RunLines({ run, names }: { run: Run; names: Names }) {
  const day = useServiceDay();
  return (
    <table class="cards run-lines">
      <thead>
        <tr>
          <th scope="col">Machine and slot</th>
          <th scope="col">Ordered</th>
          <th scope="col">Unit price</th>
          <th scope="col">Cost</th>
          <th scope="col">Now</th>
        </tr>
      </thead>
      <tbody>
        {run.lines.map((l) => (
          <tr key={l.slot_id}>
            <th scope="row">
              {names.machine(l.location)} <span class="pos">{positionOf(l)}</span> {l.title}
            </th>
            <td data-label="Ordered">{boxText(l, run.lines)}</td>
            <td data-label="Unit price">
              {yuan(l.unit_price)}
              {l.unit === 'BX' ? <span class="muted"> a box</span> : null}
            </td>
            <td data-label="Cost">{yuan(l.cost_estimate)}</td>
            <td data-label="Now">{outcome(run, l.slot_id, day?.day ?? null)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
