/** Replenishment: the plan per slot with its provenance, the runs, creating one, placing it (money moves), receiving. */
import { useEffect, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { fulfillerText, humanize, statusWord, yuan } from '../format';
import { href } from '../route';
import { dayWhen, noteServiceTime, useServiceDay } from '../service-day';
import { Empty, Loaded, Messages, useAction, useLoad } from '../ui';
import { useMachineNames, positionOf } from '../slot-names';
import { RunDetail } from './RunDetail';
import { boxText } from './RunLines';

type PlanLine = Schemas['PlanLineView'];
/** The kinds come from the generated schema (the server's FULFILLER_KINDS): a kind added there fails this build until it has its words. */
type Fulfiller = Schemas['PlanFulfillerView']['kind'];
const FULFILLER_WORDS: Record<Fulfiller, string> = {
  simulated_supplier: 'Simulated supplier',
  supply_checkout: 'Purchase orders to the suppliers (real money)',
  machine_restock: 'Restock orders to the machine platforms',
};
const FULFILLERS = Object.entries(FULFILLER_WORDS) as [Fulfiller, string][];

/** `runId`: a run to open at once (an approval's link, `#/replenishment/<run id>`). */
export function Replenishment({ runId = null }: { runId?: string | null } = {}) {
  const [fulfiller, setFulfiller] = useState<Fulfiller>('simulated_supplier');
  const [plan, reloadPlan] = useLoad(async () => {
    const p = await call(api.GET('/ucp/v1/replenishment/plan', { params: { query: { fulfiller } } }));
    noteServiceTime(p.computed_at);
    return p;
  }, [fulfiller]);
  const day = useServiceDay()?.day ?? null;
  const [runs, reloadRuns] = useLoad(() => call(api.GET('/ucp/v1/replenishment/runs', {})), []);
  const [open, setOpen] = useState<string | null>(runId);
  useEffect(() => setOpen(runId), [runId]);
  const create = useAction(async () => {
    const r = await call(api.POST('/ucp/v1/replenishment/runs', { params: { query: { fulfiller } } }));
    reloadRuns();
    setOpen(r.id);
    return r;
  });
  const refresh = () => {
    reloadRuns();
    reloadPlan();
  };

  return (
    <section aria-labelledby="rep-title">
      <div class="titlebar">
        <h1 id="rep-title">Replenishment</h1>
        <button type="button" class="primary" disabled={create.busy} onClick={() => void create.go()}>
          {create.busy ? 'Creating a run…' : 'Create a run from the plan'}
        </button>
      </div>
      <div>
        <label for="fulfiller">Who fills the run</label>
        <select id="fulfiller" value={fulfiller} onChange={(e) => setFulfiller(e.currentTarget.value as Fulfiller)}>
          {FULFILLERS.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </div>
      <Messages messages={create.messages} title="No run created:" />
      <h2>Runs</h2>
      <Loaded load={runs} what="the runs">
        {(d) =>
          d.runs.length === 0 ? (
            <Empty>No run yet.</Empty>
          ) : (
            <div class="table-wrap">
              <table class="cards">
                <thead>
                  <tr>
                    <th scope="col">Run</th>
                    <th scope="col">Status</th>
                    <th scope="col">Fulfiller</th>
                    <th scope="col">Lines</th>
                    <th scope="col">Cost (estimate)</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {d.runs.map((r) => (
                    <tr key={r.id} class={open === r.id ? 'selected' : ''}>
                      <th scope="row">
                        <button type="button" class="link" aria-expanded={open === r.id} onClick={() => setOpen(open === r.id ? null : r.id)}>
                          {r.id}
                        </button>
                      </th>
                      <td data-label="Status">
                        <span class={`status ${r.status}`}>{statusWord(r.status)}</span>
                        {r.status === 'awaiting_approval' && r.approval_id && (
                          <>
                            {' '}
                            <a href={href('approvals')}>approval {r.approval_id}</a>
                          </>
                        )}
                      </td>
                      <td data-label="Fulfiller">{fulfillerText(r.fulfiller)}</td>
                      <td data-label="Lines">{r.line_count}</td>
                      <td data-label="Cost">{yuan(r.total_cost_estimate)}</td>
                      <td data-label="Created">{dayWhen(r.created_at, day)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      {open && <RunDetail id={open} onChanged={refresh} />}
      <h2>Plan</h2>
      <Loaded load={plan} what="the plan">
        {(p) => (
          <>
            <p>
              {p.totals.slots_to_order} of {p.totals.slots} slots to order, {p.totals.units_each} units, about {yuan(p.totals.cost_estimate)} (costs are estimates). Policy {humanize(p.policy.name)}: review every {p.policy.review_period_days} days, sales window {p.policy.sales_window_days} days.
            </p>
            {p.totals.from_depot_each > 0 && (
              <p class="note">
                {p.totals.from_depot_each} units come from the depot at no cost: <a href={href('depot')}>fill them from the depot</a>.
              </p>
            )}
            <PlanTable lines={p.slots.filter((l) => l.quantity > 0 || l.on_order > 0 || l.from_depot > 0)} />
          </>
        )}
      </Loaded>
    </section>
  );
}

function PlanTable({ lines }: { lines: PlanLine[] }) {
  const names = useMachineNames();
  const ordering = lines.filter((l) => l.quantity > 0);
  if (!lines.length) return <Empty>Nothing to order now, and nothing on its way.</Empty>;
  return (
    <div class="table-wrap">
      <table class="cards">
        <thead>
          <tr>
            <th scope="col">Slot</th>
            <th scope="col">Stock / capacity</th>
            <th scope="col">On order</th>
            <th scope="col">From depot</th>
            <th scope="col">Order</th>
            <th scope="col">Demand</th>
            <th scope="col">Lead time</th>
            <th scope="col">Supplier and why</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.slot_id}>
              <th scope="row">
                {names.machine(l.location)} <span class="pos">{positionOf(l)}</span> {l.title}
              </th>
              <td data-label="Stock / capacity">
                {l.stock} / {l.capacity ?? '?'}
              </td>
              <td data-label="On order">
                {l.on_order > 0 ? (
                  <>
                    {l.on_order} each <span class="muted">({l.on_order_runs.map((r) => r.id).join(', ')})</span>
                  </>
                ) : (
                  '–'
                )}
              </td>
              <td data-label="From depot">{l.from_depot > 0 ? <a href={href('depot')}>{l.from_depot} each</a> : '–'}</td>
              <td data-label="Order">{l.quantity > 0 ? boxText(l, ordering, (x) => x.quantity_each) : 'nothing'}</td>
              <td data-label="Demand">
                {l.demand.rate_per_day.toFixed(2)}/day, <span class={l.demand.measured ? 'ok' : 'warn'}>{l.demand.measured ? 'measured' : 'not measured (fallback rate)'}</span>
              </td>
              <td data-label="Lead time">
                {l.lead_time.days} days, {l.lead_time.source}
                {l.lead_time.source === 'measured' ? ` (${l.lead_time.samples} deliveries)` : ''}
              </td>
              <td data-label="Supplier and why">{l.supply ? `${l.supply.ordered_from} (${l.supply.chosen_because.replace(/_/g, ' ')})` : l.carried_by_fulfiller ? 'the run\'s fulfiller' : 'nobody sells it'}</td>
              <td data-label="Cost">{yuan(l.cost_estimate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
