/**
 * Purchase orders: every order, the checkout sessions' (supply checkout) and those supplier runs placed directly
 * with their supplier, with the supplier's own status words, logistics and where the goods go; one checkout
 * session's detail. Follows the event socket.
 */
import { api, call, type Schemas } from '../api';
import { statusWord, supplierStatusText, when, yuan } from '../format';
import { href } from '../route';
import { Empty, Loaded, Messages, useLiveReload, useLoad } from '../ui';

type Row = { id: string; link: string | null; supplier: string; placed: string | null; status: string; logistics: string; address: string; total: number | null; source: string };
/** Runs with one supplier order (the simulated supplier's); typed by the generated schema's fulfiller kinds. */
const SUPPLIER_RUNS = new Set<Schemas['RunFulfillerView']['kind']>(['simulated_supplier']);
/** How many supplier runs are read in full (for the machines they deliver to). */
const RUN_DETAILS = 20;

/** A destination as one line: the address fields a person reads, in order; anything else as given. */
export function addressText(d: Record<string, unknown> | null | undefined): string {
  if (!d) return 'not given';
  const order = ['name', 'first_name', 'last_name', 'street_address', 'extended_address', 'address_locality', 'address_region', 'postal_code', 'address_country', 'phone_number'];
  const parts = order.map((k) => d[k]).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  // A restock destination names the route's machines.
  if (Array.isArray(d.locations) && d.locations.length) parts.push(`machines ${d.locations.map(String).join(', ')}`);
  if (parts.length) return parts.join(', ');
  const rest = Object.values(d).filter((v): v is string => typeof v === 'string');
  return rest.length ? rest.join(', ') : 'not given';
}

async function readAll(): Promise<{ rows: Row[]; messages: Schemas['UcpMessageView'][] }> {
  const [orders, runs] = await Promise.all([
    call(api.GET('/ucp/v1/orders', { params: { query: { kind: 'purchase', limit: 100 } } })),
    call(api.GET('/ucp/v1/replenishment/runs', {})),
  ]);
  const rows: Row[] = orders.orders.map((o) => ({
    id: o.id,
    link: o.checkout_id ? href('purchases', o.checkout_id) : null,
    supplier: o.namespace ?? '—',
    placed: o.placed_at ?? null,
    status: supplierStatusText(o.supplier_status),
    logistics: o.logistics?.length ? o.logistics.map((l) => [l.carrier, l.tracking_number, l.status && statusWord(l.status)].filter(Boolean).join(' ')).join('; ') : 'none yet',
    address: addressText(o.fulfillment.expectations.find((e) => e.destination)?.destination ?? null),
    total: o.totals?.find((t) => t.type === 'total')?.amount ?? null,
    source: 'purchase order',
  }));
  const supplierRuns = runs.runs.filter((r) => SUPPLIER_RUNS.has(r.fulfiller.kind) && r.supplier_order_id).slice(0, RUN_DETAILS);
  const details = await Promise.all(supplierRuns.map((r) => call(api.GET('/ucp/v1/replenishment/runs/{id}', { params: { path: { id: r.id } } })).catch(() => null)));
  supplierRuns.forEach((r, i) => {
    const full = details[i];
    const machines = full ? [...new Set(full.lines.map((l) => String((l as { location?: string }).location ?? '')).filter(Boolean))] : [];
    rows.push({
      id: r.supplier_order_id!,
      link: href('replenishment', r.id),
      supplier: r.fulfiller.namespace ?? r.fulfiller.kind,
      placed: r.placed_at,
      status: statusWord(r.status),
      logistics: r.delivered_at ? `delivered ${when(r.delivered_at)}` : 'none yet',
      address: machines.length ? `restocked into machines ${machines.join(', ')}` : 'restocked into the run’s machines',
      total: r.total_cost_estimate?.amount ?? null,
      source: `run ${r.id}`,
    });
  });
  rows.sort((a, b) => (b.placed ?? '').localeCompare(a.placed ?? ''));
  return { rows, messages: orders.messages };
}

export function Purchases({ sessionId }: { sessionId: string | null }) {
  const [orders, reload] = useLoad(readAll, []);
  useLiveReload(reload, ['purchase.', 'checkout.', 'replenishment.run']);
  return (
    <section aria-labelledby="po-title">
      <h1 id="po-title">Purchase orders</h1>
      {sessionId && <SessionDetail id={sessionId} />}
      <Loaded load={orders} what="the purchase orders">
        {(d) =>
          d.rows.length === 0 ? (
            <Empty>No purchase order yet.</Empty>
          ) : (
            <>
              <Messages messages={d.messages} />
              <table class="cards">
                <thead>
                  <tr>
                    <th scope="col">Order</th>
                    <th scope="col">Supplier</th>
                    <th scope="col">Placed</th>
                    <th scope="col">Status</th>
                    <th scope="col">Delivery to</th>
                    <th scope="col">Logistics</th>
                    <th scope="col">Total</th>
                  </tr>
                </thead>
                <tbody>
                  {d.rows.map((o) => (
                    <tr key={`${o.source}-${o.id}`}>
                      <th scope="row">
                        {o.link ? <a href={o.link}>{o.id}</a> : o.id} <span class="muted">{o.source}</span>
                      </th>
                      <td data-label="Supplier">{o.supplier}</td>
                      <td data-label="Placed">{when(o.placed)}</td>
                      <td data-label="Status">{o.status}</td>
                      <td data-label="Delivery to">{o.address}</td>
                      <td data-label="Logistics">{o.logistics}</td>
                      <td data-label="Total">{o.total === null ? '—' : yuan({ amount: o.total })}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )
        }
      </Loaded>
    </section>
  );
}

function SessionDetail({ id }: { id: string }) {
  const [s] = useLoad(() => call(api.GET('/ucp/v1/checkout-sessions/{id}', { params: { path: { id } } })), [id]);
  return (
    <div class="card" role="region" aria-label={`Checkout session ${id}`}>
      <Loaded load={s} what={`checkout session ${id}`}>
        {(c) => (
          <>
            <h2>
              Checkout session {c.id}: <span class={`status ${c.status}`}>{statusWord(c.status)}</span>
            </h2>
            <Messages messages={c.messages} />
            <p>
              Supplier {c.namespace}; created {when(c.created_at)}; total {yuan({ amount: c.totals.find((t) => t.type === 'total')?.amount ?? 0 })}
              {c.order ? `; order ${c.order.id}` : ''}.
            </p>
            <p>Delivery to: {addressText((c.fulfillment as { methods?: { destinations?: Record<string, unknown>[] }[] }).methods?.[0]?.destinations?.[0] ?? null)}</p>
            <ul>
              {c.line_items.map((l) => (
                <li key={l.id}>
                  {l.item.title ?? l.item.id} <span class="muted">{l.item.id}</span> × {l.quantity} {yuan(l.item.price)}
                </li>
              ))}
            </ul>
            <p>
              <a href={href('purchases')}>Close</a>
            </p>
          </>
        )}
      </Loaded>
    </div>
  );
}
