/**
 * Fleet: every machine from the synced copy with its place on today's route (GET /visits: a stop, or why not today),
 * fill, sold-out slots, sales and data freshness (measured from when the service read it, on the service's clock);
 * the fleet's sales totals come from the service. Sortable; a card per machine on a phone; follows the event socket.
 */
import { useMemo, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { age, freshness, orders, yuan } from '../format';
import { href } from '../route';
import { readRoute, type RouteDay } from '../route-api';
import { dayWords, noteServiceTime } from '../service-day';
import { Loaded, Messages, toMessages, useAction, useLiveReload, useLoad } from '../ui';

type FleetMachine = Schemas['FleetMachineView'];
/** A machine's place on today's route: its stop, or why it is not visited today (and when it is due). */
type Visit = { stop: number; reason: string } | { stop: null; reason: string; due: string | null };
type Row = FleetMachine & { visit: Visit | null; today: string | null };
type SortKey = 'visit' | 'name' | 'fill' | 'sold_out' | 'today' | 'week' | 'synced';

function visitsOf(d: RouteDay): Map<string, Visit> {
  const out = new Map<string, Visit>();
  for (const s of d.route) for (const m of s.machines) out.set(m.location_id, { stop: s.order, reason: s.reason });
  for (const k of d.skipped) out.set(k.location_id, { stop: null, reason: k.reason, due: k.due_day });
  return out;
}

const NONE = Number.POSITIVE_INFINITY;
const SORTS: Record<SortKey, (m: Row) => number | string> = {
  visit: (m) => (m.visit?.stop ?? (m.visit && !m.visit.stop && m.visit.due ? 1000 + Date.parse(m.visit.due) / 86_400_000 : NONE)),
  name: (m) => m.name.toLowerCase(),
  fill: (m) => m.fill_percent ?? NONE,
  sold_out: (m) => m.sold_out_slots,
  today: (m) => m.sales_today.total.amount,
  week: (m) => m.sales_7d.total.amount,
  synced: (m) => (m.last_synced_at ? new Date(m.last_synced_at).getTime() : 0),
};
/** The first click sorts the way an operator looks: most urgent, emptiest, shortest cover, most sold out, most money. */
const FIRST_ASC: Record<SortKey, boolean> = { visit: true, name: true, fill: true, sold_out: false, today: false, week: false, synced: true };
const FRESHNESS_TEXT = { fresh: 'under 3 h', aging: '3 to 8 h', stale: 'over 8 h', never: 'never' } as const;
const LIVE_KINDS = ['sync.', 'sale.settled', 'replenishment.run', 'restock.', 'price.changed', 'location.removed', 'visit.'];

export function Fleet() {
  const [load, reload] = useLoad(async () => {
    const [fleet, route] = await Promise.all([call(api.GET('/ucp/v1/fleet', {})), readRoute().catch((e: unknown) => toMessages(e))]);
    const byId = Array.isArray(route) ? new Map<string, Visit>() : visitsOf(route);
    const today = Array.isArray(route) ? null : route.day;
    if (!Array.isArray(route)) noteServiceTime(route.computed_at, route.day);
    return { fleet, visitProblem: Array.isArray(route) ? route : null, rows: fleet.machines.map((m): Row => ({ ...m, visit: byId.get(m.id) ?? null, today })) };
  }, []);
  useLiveReload(reload, LIVE_KINDS);
  const [sort, setSort] = useState<{ key: SortKey; asc: boolean }>({ key: 'visit', asc: true });
  const sync = useAction(async () => {
    const r = await call(api.POST('/ucp/v1/locations/sync', { body: {} }));
    reload();
    return r;
  });
  const [result, setResult] = useState<Schemas['SyncResponse'] | null>(null);

  const header = (key: SortKey, label: string) => {
    const active = sort.key === key;
    return (
      <th scope="col" aria-sort={active ? (sort.asc ? 'ascending' : 'descending') : 'none'}>
        <button type="button" class="sort" onClick={() => setSort({ key, asc: active ? !sort.asc : FIRST_ASC[key] })}>
          {label} {active ? (sort.asc ? '▲' : '▼') : ''}
        </button>
      </th>
    );
  };

  return (
    <section aria-labelledby="fleet-title">
      <div class="titlebar">
        <h1 id="fleet-title">Fleet</h1>
        <button
          type="button"
          class="primary"
          disabled={sync.busy}
          onClick={() => {
            setResult(null);
            void sync.go().then((r) => r && setResult(r));
          }}
        >
          {sync.busy ? 'Syncing every machine…' : 'Sync now'}
        </button>
      </div>
      {sync.busy && <progress aria-label="Sync in progress" />}
      {result && (
        <p class="result" role="status">
          Sync done: {result.locations} machines, {result.products} products, {result.slots} slots, {result.sales} sales read.
        </p>
      )}
      {result && <Messages messages={result.messages} />}
      <Messages messages={sync.messages} title="Sync failed:" />
      <Loaded load={load} what="the fleet">
        {(d) => (
          <>
            <dl class="totals" aria-label="Fleet sales">
              <div>
                <dt>Sales today</dt>
                <dd>{yuan(d.fleet.totals.sales_today.total)}</dd>
                <dd class="muted">{orders(d.fleet.totals.sales_today.orders)}</dd>
              </div>
              <div>
                <dt>Sales, last 7 days</dt>
                <dd>{yuan(d.fleet.totals.sales_7d.total)}</dd>
                <dd class="muted">{orders(d.fleet.totals.sales_7d.orders)}</dd>
              </div>
            </dl>
            {d.visitProblem && <Messages title="Today's route could not be read:" messages={d.visitProblem} />}
            <FleetTable machines={d.rows} sort={sort} header={header} now={Date.parse(d.fleet.read_at)} />
          </>
        )}
      </Loaded>
    </section>
  );
}

/** `now`: when the service read the fleet, on its clock (data ages are measured from it, not from the browser's clock). */
function FleetTable(p: { machines: Row[]; sort: { key: SortKey; asc: boolean }; header: (k: SortKey, l: string) => preact.JSX.Element; now: number }) {
  const rows = useMemo(() => {
    const f = SORTS[p.sort.key];
    return [...p.machines].sort((a, b) => {
      const x = f(a);
      const y = f(b);
      const c = x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1;
      return p.sort.asc ? c : -c;
    });
  }, [p.machines, p.sort]);
  if (!rows.length) return <p class="empty">No machine is registered yet: add one with its id and name.</p>;
  const now = Number.isNaN(p.now) ? Date.now() : p.now;
  return (
    <div class="table-wrap">
      <table class="cards">
        <caption>
          {rows.length} machines. Freshness: green under 3 h, yellow 3 to 8 h, red over 8 h, grey never synced.
        </caption>
        <thead>
          <tr>
            {p.header('name', 'Machine')}
            {p.header('visit', "Today's route")}
            {p.header('fill', 'Fill')}
            {p.header('sold_out', 'Sold out')}
            {p.header('today', 'Sales today')}
            {p.header('week', 'Sales 7 days')}
            {p.header('synced', 'Data freshness')}
          </tr>
        </thead>
        <tbody>
          {rows.map((m) => {
            const f = freshness(m.last_synced_at, now);
            const v = m.visit;
            return (
              <tr key={m.id}>
                <th scope="row">
                  <a href={href('machine', m.id)}>{m.name}</a> <span class="muted">{m.id}</span>
                </th>
                <td data-label="Today's route">
                  {!v ? (
                    '—'
                  ) : v.stop !== null ? (
                    <span class="warn">
                      stop {v.stop}: {v.reason}
                    </span>
                  ) : (
                    <>
                      not today{v.due ? ` (due ${dayWords(v.due, m.today)})` : ''}: {v.reason}
                    </>
                  )}
                </td>
                <td data-label="Fill">
                  {m.fill_percent === null ? (
                    'unknown'
                  ) : (
                    <span class="fill">
                      <meter min={0} max={100} low={25} high={60} optimum={100} value={m.fill_percent} aria-label={`Fill of ${m.name}`} /> {m.fill_percent}%
                    </span>
                  )}
                </td>
                <td data-label="Sold out">
                  {m.sold_out_slots} of {m.slots} slots
                </td>
                <td data-label="Sales today">
                  {yuan(m.sales_today.total)} <span class="muted">({m.sales_today.orders})</span>
                </td>
                <td data-label="Sales 7 days">
                  {yuan(m.sales_7d.total)} <span class="muted">({m.sales_7d.orders})</span>
                </td>
                <td data-label="Data freshness">
                  <span class={`fresh ${f}`} title={FRESHNESS_TEXT[f]}>
                    {age(m.last_synced_at, now)}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
