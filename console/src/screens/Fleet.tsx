/** Fleet: every machine from the synced copy, sortable, coloured by the age of its last sync; a sync button. */
import { useMemo, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { age, freshness, yuan } from '../format';
import { href } from '../route';
import { Loaded, Messages, useAction, useLoad } from '../ui';

type Machine = Schemas['FleetMachineView'];
type SortKey = 'name' | 'fill' | 'sold_out' | 'today' | 'week' | 'synced';

const SORTS: Record<SortKey, (m: Machine) => number | string> = {
  name: (m) => m.name.toLowerCase(),
  fill: (m) => m.fill_percent ?? -1,
  sold_out: (m) => m.sold_out_slots,
  today: (m) => m.sales_today.total.amount,
  week: (m) => m.sales_7d.total.amount,
  synced: (m) => (m.last_synced_at ? new Date(m.last_synced_at).getTime() : 0),
};

const FRESHNESS_TEXT = { fresh: 'under 3 h', aging: '3 to 8 h', stale: 'over 8 h', never: 'never' } as const;

export function Fleet() {
  const [load, reload] = useLoad(() => call(api.GET('/ucp/v1/fleet', {})), []);
  const [sort, setSort] = useState<{ key: SortKey; asc: boolean }>({ key: 'name', asc: true });
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
        <button type="button" class="sort" onClick={() => setSort({ key, asc: active ? !sort.asc : key === 'name' })}>
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
        {(data) => <FleetTable machines={data.machines} sort={sort} header={header} />}
      </Loaded>
    </section>
  );
}

function FleetTable(p: { machines: Machine[]; sort: { key: SortKey; asc: boolean }; header: (k: SortKey, l: string) => preact.JSX.Element }) {
  const rows = useMemo(() => {
    const f = SORTS[p.sort.key];
    return [...p.machines].sort((a, b) => {
      const x = f(a);
      const y = f(b);
      const c = x < y ? -1 : x > y ? 1 : 0;
      return p.sort.asc ? c : -c;
    });
  }, [p.machines, p.sort]);
  if (!rows.length) return <p class="empty">No machine is registered yet (PUT /ucp/v1/locations/&#123;id&#125;).</p>;
  const now = Date.now();
  return (
    <div class="table-wrap">
      <table>
        <caption>{rows.length} machines. Freshness: green under 3 h, yellow 3 to 8 h, red over 8 h, grey never synced.</caption>
        <thead>
          <tr>
            {p.header('name', 'Machine')}
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
            return (
              <tr key={m.id}>
                <th scope="row">
                  <a href={href('machine', m.id)}>{m.name}</a> <span class="muted">{m.id}</span>
                </th>
                <td>
                  {m.fill_percent === null ? '—' : (
                    <span class="fill">
                      <meter min={0} max={100} low={25} high={60} optimum={100} value={m.fill_percent} aria-label={`Fill of ${m.name}`} /> {m.fill_percent}%
                    </span>
                  )}
                </td>
                <td>
                  {m.sold_out_slots} / {m.slots}
                </td>
                <td>
                  {yuan(m.sales_today.total)} <span class="muted">({m.sales_today.orders})</span>
                </td>
                <td>
                  {yuan(m.sales_7d.total)} <span class="muted">({m.sales_7d.orders})</span>
                </td>
                <td>
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
