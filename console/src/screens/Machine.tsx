/** Machine: its slots from the synced copy, a live shelf read on demand, its recent sales and a price change. */
import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { when, yuan } from '../format';
import { href } from '../route';
import { Confirm, Loaded, Messages, useAction, useLiveReload, useLoad } from '../ui';
import { SalesTable } from './Sales';

type Variant = Schemas['VariantView'];

/** Every slot of the machine, page by page (the catalog pages at most 100 at a time). */
async function readSlots(namespace: string, location: string): Promise<Variant[]> {
  const all: Variant[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const r = await call(api.POST('/ucp/v1/catalog/search', { body: { filters: { namespace, location }, pagination: { limit: 100, ...(cursor ? { cursor } : {}) } } }));
    all.push(...r.products.flatMap((p) => p.variants));
    if (!r.pagination.has_next_page || !r.pagination.cursor) break;
    cursor = r.pagination.cursor;
  }
  return all;
}

export function Machine({ id }: { id: string }) {
  const [machine] = useLoad(async () => {
    const fleet = await call(api.GET('/ucp/v1/fleet', {}));
    const m = fleet.machines.find((x) => x.id === id);
    if (!m) throw new Error(`no machine ${id} is registered`);
    return m;
  }, [id]);
  return (
    <section aria-labelledby="machine-title">
      <p class="back">
        <a href={href('fleet')}>← Fleet</a>
      </p>
      <Loaded load={machine} what="the machine">
        {(m) => (
          <>
            <h1 id="machine-title">
              {m.name} <span class="muted">{m.id}</span>
            </h1>
            <MachineSlots namespace={m.namespace} id={m.id} />
            <LiveShelves id={m.id} />
            <h2>Recent sales</h2>
            <RecentSales id={m.id} />
          </>
        )}
      </Loaded>
    </section>
  );
}

function MachineSlots({ namespace, id }: { namespace: string; id: string }) {
  const [slots, reload] = useLoad(async () => {
    const [list, audit] = await Promise.all([readSlots(namespace, id), call(api.GET('/ucp/v1/price-audit', { params: { query: { location: id } } })).catch(() => null)]);
    return { list, flags: new Map((audit?.flags ?? []).map((f) => [f.item.id, f])) };
  }, [namespace, id]);
  useLiveReload(reload, ['sync.', 'price.', 'replenishment.run', 'restock.']);
  return (
    <>
      <h2>Slots (synced copy)</h2>
      <Loaded load={slots} what="the slots">
        {({ list, flags }) => (
          <>
            {flags.size > 0 && (
              <div class="messages note" role="status">
                <strong>Prices changed at the machine:</strong>
                <ul>
                  {[...flags.values()].map((f) => (
                    <li key={f.slot_id}>
                      {f.title} sells at {yuan(f.machine_price)} on the machine; the service last set {yuan(f.service_price)} (seen {when(f.flagged_at)}).
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {list.length === 0 ? (
              <p class="empty">No slot in the synced copy yet: sync the fleet.</p>
            ) : (
              <div class="table-wrap">
                <table class="cards">
                  <thead>
                    <tr>
                      <th scope="col">Product</th>
                      <th scope="col">Slot</th>
                      <th scope="col">Price</th>
                      <th scope="col">Stock</th>
                      <th scope="col">Price change</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((v) => (
                      <tr key={v.id}>
                        <th scope="row">
                          {v.title} <span class="muted">{v.id}</span>
                        </th>
                        <td data-label="Slot">{v.inventory?.slot_id ?? '—'}</td>
                        <td data-label="Price">
                          {yuan(v.price)}
                          {flags.has(v.id) && <span class="flag">changed at the machine</span>}
                        </td>
                        <td data-label="Stock" class={v.inventory?.stock === 0 ? 'soldout' : ''}>
                          {v.inventory?.stock === 0 ? 'sold out' : (v.inventory?.stock ?? v.availability?.stock ?? '—')}
                        </td>
                        <td data-label="Price change">{v.inventory?.locked ? 'waiting for approval' : 'none pending'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <PriceForm location={id} slots={list} onDone={reload} />
          </>
        )}
      </Loaded>
    </>
  );
}

function PriceForm({ location, slots, onDone }: { location: string; slots: Variant[]; onDone: () => void }) {
  const [item, setItem] = useState(slots[0]?.id ?? '');
  const [price, setPrice] = useState('');
  const [result, setResult] = useState<Schemas['SetPricesResponse'] | null>(null);
  const fen = Math.round(Number(price) * 100);
  const valid = item !== '' && price.trim() !== '' && Number.isFinite(fen) && fen >= 0;
  const current = slots.find((s) => s.id === item);
  const action = useAction(async () => {
    setResult(null);
    const r = await call(api.PUT('/ucp/v1/locations/{id}/prices', { params: { path: { id: location } }, body: { confirm: true, prices: [{ item: { id: item }, price: { amount: fen, currency: 'CNY' } }] } }));
    setResult(r);
    onDone();
  });
  if (!slots.length) return null;
  return (
    <form class="card" aria-labelledby="price-title" onSubmit={(e) => e.preventDefault()}>
      <h2 id="price-title">Change a price</h2>
      <label for="price-item">Product</label>
      <select id="price-item" value={item} onChange={(e) => setItem(e.currentTarget.value)}>
        {slots.map((s) => (
          <option key={s.id} value={s.id}>
            {s.title} ({yuan(s.price)})
          </option>
        ))}
      </select>
      <label for="price-new">New price (yuan)</label>
      <input id="price-new" type="number" min="0" step="0.01" inputMode="decimal" value={price} onInput={(e) => setPrice(e.currentTarget.value)} />
      <Confirm
        label="Change price…"
        confirmLabel="Yes, change the price on the machine"
        warning={
          <>
            {current?.title}: {yuan(current?.price)} → {valid ? yuan({ amount: fen }) : '?'} on the machine now. A move over the price cap, from this price or from
            the good's reference price of the day (its price before today's first change, or the last price an owner approved today), waits for an owner's approval.
          </>
        }
        busy={action.busy}
        disabled={!valid}
        onConfirm={() => void action.go()}
      />
      <Messages messages={action.messages} title="Price change refused:" />
      {result && (
        <div role="status" class="result">
          {result.updated.map((u) => (
            <p key={u.item.id}>
              Changed {slots.find((x) => x.id === u.item.id)?.title ?? u.item.id}: {yuan(u.previous)} → {yuan(u.price)}.
            </p>
          ))}
          {result.references.map((r) => (
            <p key={`ref-${r.item.id}`} class="muted">
              Reference price of {r.item.id}: {yuan(r.price)} ({r.source === 'approved' ? 'approved by an owner' : 'start of the day'}, since {when(r.since)}); the price cap counts from it.
            </p>
          ))}
          {result.actions.map((a) => (
            <p key={a.approval_id}>
              Over the price cap: an owner must approve this change (<a href={href('approvals')}>see Approvals</a>); nothing changes until then.
            </p>
          ))}
          <Messages messages={result.messages} />
        </div>
      )}
    </form>
  );
}

function LiveShelves({ id }: { id: string }) {
  const [read, setRead] = useState<Schemas['LiveInventoryResponse'] | null>(null);
  const action = useAction(async () => setRead(await call(api.GET('/ucp/v1/locations/{id}/inventory', { params: { path: { id } } }))));
  return (
    <div class="card">
      <h2>Live shelves</h2>
      <button type="button" disabled={action.busy} onClick={() => void action.go()}>
        {action.busy ? 'Reading the machine…' : 'Read the shelves now'}
      </button>
      <Messages messages={action.messages} title="The machine could not be read:" />
      {read && (
        <div class="table-wrap">
          <table class="cards">
            <caption>Read live at {when(read.read_at)} ({read.items.length} items)</caption>
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Price</th>
                <th scope="col">Stock</th>
              </tr>
            </thead>
            <tbody>
              {read.items.map((i) => (
                <tr key={i.vendor_sku}>
                  <th scope="row">
                    {i.title} <span class="muted">{i.vendor_sku}</span>
                  </th>
                  <td data-label="Price">{yuan(i.price)}</td>
                  <td data-label="Stock">{i.stock}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function RecentSales({ id }: { id: string }) {
  const [sales, reload] = useLoad(() => call(api.GET('/ucp/v1/orders', { params: { query: { kind: 'sale', trade_status: 'all', location: id, limit: 20 } } })), [id]);
  useLiveReload(reload, ['sync.', 'sale.settled']);
  return <Loaded load={sales} what="the sales">{(d) => <SalesTable orders={d.orders} />}</Loaded>;
}
