/**
 * Today: which machines need a visit, why (the rule's inputs in words), what to bring to each (the pick list, from an
 * open run or not yet sourced) and what to load in the van (the pre-kit over the machines to visit). `GET /visits`.
 */
import { api, call, type Schemas } from '../api';
import { statusWord } from '../format';
import { href } from '../route';
import { Empty, Loaded, useLiveReload, useLoad } from '../ui';

type Visit = Schemas['MachineVisitView'];
type PreKit = Schemas['PreKitView'];
const LIVE_KINDS = ['sync.', 'replenishment.run', 'restock.', 'sale.settled'];

const days = (d: number | null | undefined, none: string) => (d === null || d === undefined ? none : d === 1 ? '1 day' : `${d} days`);

export function Today() {
  const [load, reload] = useLoad(() => call(api.GET('/ucp/v1/visits', {})), []);
  useLiveReload(reload, LIVE_KINDS);
  return (
    <section aria-labelledby="today-title">
      <div class="titlebar">
        <h1 id="today-title">Today</h1>
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </div>
      <Loaded load={load} what="today's visits">
        {(d) => {
          const due = d.machines.filter((m) => m.needs_visit);
          const fine = d.machines.filter((m) => !m.needs_visit);
          return (
            <>
              <p class="lead" role="status">
                {due.length === 0 ? 'No machine needs a visit today.' : `${due.length} of ${d.machines.length} machines need a visit, most urgent first.`}
              </p>
              {due.length > 0 && <Van van={d.van} />}
              {due.map((m) => (
                <MachineCard key={m.id} m={m} />
              ))}
              {fine.length > 0 && (
                <>
                  <h2>No visit needed</h2>
                  <ul class="plain">
                    {fine.map((m) => (
                      <li key={m.id}>
                        <a href={href('machine', m.id)}>{m.name}</a> <span class="muted">{m.id}</span>: {m.inputs.fill_percent === null ? 'fill unknown' : `${m.inputs.fill_percent}% full`}, lowest cover {days(m.inputs.min_cover_days, 'not selling')}.
                      </li>
                    ))}
                  </ul>
                </>
              )}
              <details class="rule">
                <summary>How machines are ranked</summary>
                <p>
                  A machine needs a visit when a slot is sold out, a slot runs out within {d.rules.low_cover_days} days (stock over the units sold per day over the last{' '}
                  {d.rules.sales_window_days} days), it is under {d.rules.low_fill_percent}% full, its last delivery was {d.rules.delivery_due_days} or more days ago, or its data is over{' '}
                  {d.rules.stale_hours} hours old. Machines are ordered by points: {d.rules.weights.sold_out_slot} per sold-out slot, up to {d.rules.weights.low_cover_slot} per slot running low, 1 per 10% empty,{' '}
                  {d.rules.weights.delivery_per_day} per day since the last delivery (up to {d.rules.weights.delivery_max_days} days), {d.rules.weights.stale_data} for stale data.
                </p>
              </details>
            </>
          );
        }}
      </Loaded>
    </section>
  );
}

function Van({ van }: { van: PreKit[] }) {
  const total = van.reduce((t, k) => t + k.units, 0);
  return (
    <div class="card van" role="region" aria-labelledby="van-title">
      <h2 id="van-title">Load the van: {total} units</h2>
      {van.length === 0 ? (
        <Empty>Nothing to load: the machines to visit need a look, not goods.</Empty>
      ) : (
        <ul class="kit">
          {van.map((k) => (
            <li key={k.sku_id}>
              <span class="qty">{k.units}</span> <span class="name">{k.title}</span> <span class="muted">{k.sku_id}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function MachineCard({ m }: { m: Visit }) {
  const i = m.inputs;
  return (
    <article class="card visit" aria-labelledby={`visit-${m.id}`}>
      <h2 id={`visit-${m.id}`}>
        <span class="rank">{m.rank}.</span> <a href={href('machine', m.id)}>{m.name}</a> <span class="muted">{m.id}</span>
      </h2>
      <ul class="reasons">
        {m.reasons.map((r) => (
          <li key={r.code} class={`reason ${r.code}`}>
            {r.text}
          </li>
        ))}
      </ul>
      <dl class="inputs">
        <div>
          <dt>Sold out</dt>
          <dd>
            {i.sold_out_slots} of {i.slots} slots
          </dd>
        </div>
        <div>
          <dt>Lowest cover</dt>
          <dd>{days(i.min_cover_days, 'not selling')}</dd>
        </div>
        <div>
          <dt>Fill</dt>
          <dd>{i.fill_percent === null ? 'unknown' : `${i.fill_percent}%`}</dd>
        </div>
        <div>
          <dt>Last delivery</dt>
          <dd>{i.days_since_delivery === null ? 'none recorded' : `${days(i.days_since_delivery, '')} ago`}</dd>
        </div>
        <div>
          <dt>Data age</dt>
          <dd>{i.data_age_hours === null ? 'never synced' : `${i.data_age_hours} h`}</dd>
        </div>
        <div>
          <dt>Points</dt>
          <dd>{m.score}</dd>
        </div>
      </dl>
      <h3>Pick list</h3>
      {m.picks.length === 0 ? (
        <Empty>Nothing to bring: check the machine.</Empty>
      ) : (
        <table class="cards">
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Units</th>
              <th scope="col">Stock now</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {m.picks.map((p) => {
              const s = m.slots.find((x) => x.slot_id === p.slot_id);
              return (
                <tr key={p.slot_id}>
                  <th scope="row">
                    {p.title} <span class="muted">{p.sku_id}</span>
                  </th>
                  <td data-label="Units">{p.units}</td>
                  <td data-label="Stock now">
                    {s ? `${s.stock}${s.capacity !== null ? ` of ${s.capacity}` : ''}` : '—'}
                    {s && s.cover_days !== null && s.stock > 0 ? <span class="muted"> ({days(s.cover_days, '')} left)</span> : null}
                  </td>
                  <td data-label="From">
                    {p.from === null ? (
                      <span class="warn">not ordered yet</span>
                    ) : p.from.kind === 'open_run' ? (
                      <a href={href('replenishment', p.from.run_id)}>
                        run {p.from.run_id} ({statusWord(p.from.run_status)})
                      </a>
                    ) : (
                      'depot'
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {m.pre_kit.length > 0 && (
        <p class="muted">
          Pre-kit: {m.pre_kit.map((k) => `${k.units} × ${k.title}`).join(', ')}.
        </p>
      )}
    </article>
  );
}
