/** Sales: the ledger with the spec's filters, paging, and a chart of daily settled sales. */
import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { statusWord, when, yuan } from '../format';
import { useServiceDay } from '../service-day';
import { Loaded, useLoad } from '../ui';
import { DailyChart } from './DailyChart';

type Order = Schemas['OrderView'];
type Status = 'settled' | 'all' | 'in_progress' | 'pending_review' | 'payment_failed' | 'refunded' | 'cancelled';
const STATUSES: Status[] = ['settled', 'all', 'in_progress', 'pending_review', 'payment_failed', 'refunded', 'cancelled'];

const total = (o: Order) => o.totals?.find((t) => t.type === 'total')?.amount ?? 0;
/** A calendar day (YYYY-MM-DD) from a date input, as the +08:00 midnight the ledger's days use. */
const dayStart = (d: string) => (d ? `${d}T00:00:00+08:00` : undefined);
const dayAfter = (d: string) => (d ? new Date(new Date(`${d}T00:00:00+08:00`).getTime() + 86_400_000).toISOString() : undefined);

export function SalesTable({ orders }: { orders: Order[] }) {
  if (!orders.length) return <p class="empty">No sale matches.</p>;
  return (
    <div class="table-wrap">
      <table class="cards">
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Machine</th>
            <th scope="col">Taken</th>
            <th scope="col">Status</th>
            <th scope="col">Goods</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.id}>
              <th scope="row">{o.id}</th>
              <td data-label="Machine">{o.location_name ?? o.location}</td>
              <td data-label="Taken">{when(o.taken_at)}</td>
              <td data-label="Status">
                <span class={`status ${o.trade_status ?? 'unknown'}`}>{statusWord(o.trade_status)}</span>
                {(o.adjustments ?? []).map((a) => (
                  <span key={a.id} class={`badge ${a.type}`}>
                    {a.type === 'refund' ? 'refunded' : a.type === 'cancellation' ? 'cancelled' : 'refund failed'} {yuan({ amount: Math.abs(a.totals?.find((t) => t.type === 'total')?.amount ?? 0) })}
                  </span>
                ))}
              </td>
              <td data-label="Goods">
                <span class="wrap-anywhere">{o.line_items.map((l) => `${l.item.title ?? l.item.id} ×${l.quantity.total}`).join(', ')}</span>
              </td>
              <td data-label="Total">{yuan({ amount: total(o) })}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Sales() {
  const [status, setStatus] = useState<Status>('all');
  const [location, setLocation] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const filters = { status, location: location.trim(), from, to };
  const cursor = cursors[cursors.length - 1];
  const query = {
    kind: 'sale' as const,
    trade_status: status,
    limit: 25,
    ...(filters.location ? { location: filters.location } : {}),
    ...(from ? { from: dayStart(from) } : {}),
    ...(to ? { to: dayAfter(to) } : {}),
  };
  const [page] = useLoad(() => call(api.GET('/ucp/v1/orders', { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } })), [status, filters.location, from, to, cursor]);
  const resetPaging = () => setCursors([]);
  const today = useServiceDay()?.day; // no day after the service's today

  return (
    <section aria-labelledby="sales-title">
      <h1 id="sales-title">Sales</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <div>
          <label for="f-status">Status</label>
          <select id="f-status" value={status} onChange={(e) => (setStatus(e.currentTarget.value as Status), resetPaging())}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusWord(s)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="f-location">Machine id</label>
          <input id="f-location" value={location} onChange={(e) => (setLocation(e.currentTarget.value), resetPaging())} />
        </div>
        <div>
          <label for="f-from">From</label>
          <input id="f-from" type="date" max={today} value={from} onChange={(e) => (setFrom(e.currentTarget.value), resetPaging())} />
        </div>
        <div>
          <label for="f-to">To</label>
          <input id="f-to" type="date" max={today} value={to} onChange={(e) => (setTo(e.currentTarget.value), resetPaging())} />
        </div>
      </form>
      <DailyChart location={filters.location} from={from} to={to} />
      <Loaded load={page} what="the sales">
        {(d) => (
          <>
            <SalesTable orders={d.orders} />
            <div class="pager">
              <button type="button" disabled={!cursors.length} onClick={() => setCursors(cursors.slice(0, -1))}>
                ← Previous
              </button>
              <span>Page {cursors.length + 1}</span>
              <button type="button" disabled={!d.pagination.has_next_page || !d.pagination.cursor} onClick={() => d.pagination.cursor && setCursors([...cursors, d.pagination.cursor])}>
                Next →
              </button>
            </div>
          </>
        )}
      </Loaded>
    </section>
  );
}
