/** Purchase orders with supplier status and logistics, and one checkout session's detail. */
import { api, call } from '../api';
import { when, yuan } from '../format';
import { href } from '../route';
import { Empty, Loaded, Messages, useLoad } from '../ui';

export function Purchases({ sessionId }: { sessionId: string | null }) {
  const [orders] = useLoad(() => call(api.GET('/ucp/v1/orders', { params: { query: { kind: 'purchase', limit: 100 } } })), []);
  return (
    <section aria-labelledby="po-title">
      <h1 id="po-title">Purchase orders</h1>
      {sessionId && <SessionDetail id={sessionId} />}
      <Loaded load={orders} what="the purchase orders">
        {(d) =>
          d.orders.length === 0 ? (
            <Empty>No purchase order yet.</Empty>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Purchase order</th>
                    <th scope="col">Supplier</th>
                    <th scope="col">Placed</th>
                    <th scope="col">Supplier status</th>
                    <th scope="col">Logistics</th>
                    <th scope="col">Total</th>
                  </tr>
                </thead>
                <tbody>
                  {d.orders.map((o) => (
                    <tr key={o.id}>
                      <th scope="row">{o.checkout_id ? <a href={href('purchases', o.checkout_id)}>{o.id}</a> : o.id}</th>
                      <td>{o.namespace}</td>
                      <td>{when(o.placed_at)}</td>
                      <td>{o.supplier_status ? `${o.supplier_status.mapped ?? 'unmapped'} (${o.supplier_status.code}: ${o.supplier_status.description})` : '—'}</td>
                      <td>{o.logistics?.length ? o.logistics.map((l) => [l.carrier, l.tracking_number, l.status].filter(Boolean).join(' ')).join('; ') : 'none yet'}</td>
                      <td>{yuan({ amount: o.totals?.find((t) => t.type === 'total')?.amount ?? 0 })}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
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
              Checkout session {c.id}: <span class={`status ${c.status}`}>{c.status}</span>
            </h2>
            <Messages messages={c.messages} />
            <p>
              Supplier {c.namespace}; created {when(c.created_at)}; total {yuan({ amount: c.totals.find((t) => t.type === 'total')?.amount ?? 0 })}
              {c.order ? `; order ${c.order.id}` : ''}.
            </p>
            <ul>
              {c.line_items.map((l) => (
                <li key={l.id}>
                  {l.item.title ?? l.item.id} × {l.quantity} {yuan(l.item.price)}
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
