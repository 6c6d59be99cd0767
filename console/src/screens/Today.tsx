/**
 * Today is the route (`GET /visits`): the stops to make today in order (a stop is a site and its machines), each with
 * why in words and figures (money lost if skipped against the stop's cost) and what to bring per slot; a form per
 * machine records the visit (`POST /visits`); the van list for the route with what the warehouse lacks; the machines
 * skipped today, folded below with their reason.
 */
import { useState } from 'preact/hooks';
import { fenText } from '../format';
import { readRoute, type RouteDay, type Skipped, type VisitResult } from '../route-api';
import { href } from '../route';
import { dayWords, noteServiceTime } from '../service-day';
import { Empty, Loaded, Messages, useLiveReload, useLoad } from '../ui';
import { RouteStop } from './RouteStop';

const LIVE_KINDS = ['sync.', 'replenishment.run', 'restock.', 'sale.settled', 'visit.', 'depot.'];

export function Today() {
  const [load, reload] = useLoad(async () => {
    const d = await readRoute();
    noteServiceTime(d.computed_at, d.day);
    return d;
  }, []);
  useLiveReload(reload, LIVE_KINDS);
  // Kept here, not in the stop: once recorded, the machine may leave the route when it is read again.
  const [recorded, setRecorded] = useState<VisitResult[]>([]);
  const onRecorded = (v: VisitResult) => {
    setRecorded((r) => [v, ...r.filter((x) => x.id !== v.id)]);
    reload();
  };
  return (
    <section aria-labelledby="today-title">
      <div class="titlebar">
        <h1 id="today-title">Today</h1>
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </div>
      <Recorded visits={recorded} />
      <Loaded load={load} what="today's route">
        {(d) => (
          <>
            <p class="lead" role="status">
              {d.route.length === 0
                ? `No stop is worth its cost on ${dayWords(d.day)}.`
                : `Route for ${dayWords(d.day)}: ${d.route.length} ${d.route.length === 1 ? 'stop' : 'stops'} of ${d.stops.capacity} possible, in this order.`}
            </p>
            <Messages messages={d.messages} />
            {d.route.length > 0 && <Van d={d} />}
            {d.route.map((s) => (
              <RouteStop key={s.order} stop={s} short={new Set(d.warehouse_short.map((x) => x.sku_id))} onRecorded={onRecorded} />
            ))}
            {d.skipped.length > 0 && <SkippedList skipped={d.skipped} today={d.day} />}
            <p class="muted">
              A stop is made when the money its machines would lose by waiting is worth more than the stop's cost ({fenText(d.settings.stop_cost_fen)} by default); at most{' '}
              {d.settings.stops_per_day} stops a day; slots are filled to last until the next visit.
            </p>
          </>
        )}
      </Loaded>
    </section>
  );
}

function Van({ d }: { d: RouteDay }) {
  const total = d.van.reduce((t, k) => t + k.units, 0);
  return (
    <div class="card van" role="region" aria-labelledby="van-title">
      <h2 id="van-title">Load the van: {total} units</h2>
      {d.van.length === 0 ? (
        <Empty>Nothing to load from the warehouse for today's route.</Empty>
      ) : (
        <ul class="kit">
          {d.van.map((k) => (
            <li key={k.sku_id}>
              <span class="qty">{k.units}</span> <span class="name">{k.title}</span> <span class="muted">for {k.slots === 1 ? '1 slot' : `${k.slots} slots`}</span>
            </li>
          ))}
        </ul>
      )}
      {d.warehouse_short.length > 0 && (
        <div class="short" role="note">
          <strong>The warehouse is short:</strong>
          <ul>
            {d.warehouse_short.map((s) => (
              <li key={s.sku_id}>
                {s.units} × {s.title} wanted today are not in the warehouse.
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function SkippedList({ skipped, today }: { skipped: Skipped[]; today: string }) {
  return (
    <details class="skipped card">
      <summary>
        <h2>Not on the route: {skipped.length === 1 ? '1 machine' : `${skipped.length} machines`}</h2>
      </summary>
      <ul class="plain">
        {skipped.map((s) => (
          <li key={s.location_id}>
            <a href={href('machine', s.location_id)}>{s.name}</a>
            {s.site !== s.location_id && <span class="muted"> at {s.site}</span>}: {s.reason}{' '}
            <span class="muted">
              (loses {fenText(s.lost_if_skipped_fen)} if skipped, the stop costs {fenText(s.stop_cost_fen)}
              {s.due_day ? `; due ${dayWords(s.due_day, today)}` : ''}
              {s.next_possible_visit ? `; next possible visit ${dayWords(s.next_possible_visit, today)}` : ''})
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}

function Recorded({ visits }: { visits: VisitResult[] }) {
  if (!visits.length) return null;
  return (
    <div class="card recorded" role="status" aria-label="Visits recorded">
      {visits.map((v) => (
        <div key={v.id}>
          <h2>
            Visit recorded at {v.name}: {v.units_loaded} units loaded{v.units_returned ? `, ${v.units_returned} returned to the warehouse` : ''}
          </h2>
          <ul class="plain">
            {v.slots.map((s) => (
              <li key={s.slot_id}>
                <span class="pos">{s.position}</span> {s.title}: stock {s.stock_before} → {s.stock_after}
                {s.returned ? <span class="muted"> ({s.returned} returned)</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
