/**
 * The depot (the operator's warehouse or van): what it holds per good, filling slots from it as the plan proposes
 * (`from_depot`), and recording a stock count with its reason. Both changes take a confirm step and an
 * Idempotency-Key, so a resend after a lost answer replays instead of moving units twice.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { when } from '../format';
import { Confirm, Empty, Loaded, Messages, useAction, useLoad } from '../ui';

type PlanLine = Schemas['PlanLineView'];
type DepotPage = Schemas['DepotResponse'];
type Stock = Schemas['DepotStockView'];

export function Depot() {
  const [depot, reloadDepot] = useLoad(() => call(api.GET('/ucp/v1/depot', {})), []);
  const [plan, reloadPlan] = useLoad(() => call(api.GET('/ucp/v1/replenishment/plan', {})), []);
  const changed = () => {
    reloadDepot();
    reloadPlan();
  };
  return (
    <section aria-labelledby="depot-title">
      <h1 id="depot-title">Depot</h1>
      <Loaded load={depot} what="the depot">
        {(d) => <DepotStock depot={d} onDone={changed} />}
      </Loaded>
      <h2>Fill from the depot</h2>
      <Loaded load={plan} what="the plan">
        {(p) => <FillFromPlan lines={p.slots.filter((l) => l.from_depot > 0)} onDone={changed} />}
      </Loaded>
    </section>
  );
}

/** The depot's goods a page at a time (`GET /depot` pages by sku id), with the stock count of the goods shown. */
function DepotStock({ depot: d, onDone }: { depot: DepotPage; onDone: () => void }) {
  const [rows, setRows] = useState<Stock[]>(d.stock);
  const [cursor, setCursor] = useState(d.pagination.cursor);
  useEffect(() => {
    setRows(d.stock);
    setCursor(d.pagination.cursor);
  }, [d]);
  const more = useAction(async () => {
    const page = await call(api.GET('/ucp/v1/depot', { params: { query: { cursor } } }));
    setRows((r) => [...r, ...page.stock]);
    setCursor(page.pagination.cursor);
  });
  return (
    <>
      <p>
        {d.depot.name} ({d.depot.id}): {d.totals.units} units of {d.totals.goods} goods. Units a slot had no room for are kept here; the plan fills slots from here before it buys.
      </p>
      {rows.length === 0 ? (
        <Empty>The depot is empty.</Empty>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Good</th>
                <th scope="col">Units</th>
                <th scope="col">Last change</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <tr key={s.item.id}>
                  <th scope="row">
                    {s.title ?? s.item.id} <span class="muted">{s.item.id}</span>
                  </th>
                  <td>{s.quantity}</td>
                  <td>{when(s.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor ? (
        <p>
          <button type="button" disabled={more.busy} onClick={() => void more.go()}>
            Show more goods ({rows.length} of {d.totals.goods} shown)
          </button>
        </p>
      ) : null}
      <Messages messages={more.messages} title="Not loaded:" />
      <StockCount goods={rows.map((s) => ({ id: s.item.id, title: s.title, quantity: s.quantity }))} onDone={onDone} />
    </>
  );
}

/** The plan's `from_depot` lines, moved into their slots in one confirmed step. */
function FillFromPlan({ lines, onDone }: { lines: PlanLine[]; onDone: () => void }) {
  const [key] = useState(() => crypto.randomUUID());
  const action = useAction(async () => {
    const fills = lines.map((l) => ({ slot_id: l.slot_id, quantity: l.from_depot }));
    await call(api.POST('/ucp/v1/depot/fill', { params: { header: { 'Idempotency-Key': `console-fill-${key}` } }, body: { fills, confirm: true } }));
    onDone();
  });
  if (!lines.length) return <Empty>The plan takes nothing from the depot now.</Empty>;
  return (
    <div>
      <ul aria-label="Slots the plan fills from the depot">
        {lines.map((l) => (
          <li key={l.slot_id}>
            {l.title} <span class="muted">{l.slot_id}</span>: {l.from_depot} units (stock {l.stock} / {l.capacity ?? '?'})
          </li>
        ))}
      </ul>
      <Confirm
        label="Fill these slots from the depot…"
        confirmLabel="Yes, the units were put in the machines"
        warning={<>This records that {lines.reduce((t, l) => t + l.from_depot, 0)} units left the depot for these slots. Nothing is bought.</>}
        busy={action.busy}
        onConfirm={() => void action.go()}
      />
      <Messages messages={action.messages} title="Not filled:" />
    </div>
  );
}

/** A stock count: the counted units replace what the depot held; a reason is required. */
function StockCount({ goods, onDone }: { goods: { id: string; title: string | null; quantity: number }[]; onDone: () => void }) {
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [qty, setQty] = useState<Record<string, string>>({});
  const [other, setOther] = useState({ id: '', quantity: '' });
  const [reason, setReason] = useState('');
  const counts = [
    ...goods.filter((g) => (qty[g.id] ?? '').trim() !== '').map((g) => ({ item: { id: g.id }, quantity: Math.max(0, Math.floor(Number(qty[g.id]))) })),
    ...(other.id.trim() && other.quantity.trim() ? [{ item: { id: other.id.trim() }, quantity: Math.max(0, Math.floor(Number(other.quantity))) }] : []),
  ];
  const action = useAction(async () => {
    await call(api.POST('/ucp/v1/depot/counts', { params: { header: { 'Idempotency-Key': `console-count-${key}` } }, body: { counts, reason: reason.trim(), confirm: true } }));
    setQty({});
    setOther({ id: '', quantity: '' });
    setReason('');
    setKey(crypto.randomUUID());
    onDone();
  });
  return (
    <form class="count" aria-label="Stock count" onSubmit={(e) => e.preventDefault()}>
      <h2>Stock count</h2>
      <p class="muted">Enter what you counted; goods left empty keep their quantity.</p>
      {goods.map((g) => (
        <div key={g.id} class="row">
          <label for={`count-${g.id}`}>
            {g.title ?? g.id} (now {g.quantity})
          </label>
          <input id={`count-${g.id}`} type="number" min="0" value={qty[g.id] ?? ''} onInput={(e) => setQty({ ...qty, [g.id]: e.currentTarget.value })} />
        </div>
      ))}
      <div class="row">
        <label for="count-other-id">Another good (sku id)</label>
        <input id="count-other-id" type="text" value={other.id} onInput={(e) => setOther({ ...other, id: e.currentTarget.value })} />
        <label for="count-other-qty">Units</label>
        <input id="count-other-qty" type="number" min="0" value={other.quantity} onInput={(e) => setOther({ ...other, quantity: e.currentTarget.value })} />
      </div>
      <div class="row">
        <label for="count-reason">Why (recorded with the count)</label>
        <input id="count-reason" type="text" maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
      </div>
      <Confirm
        label="Record the count…"
        confirmLabel="Yes, replace the depot's quantities"
        warning={<>The counted quantities of {counts.length} goods replace what the depot held; the differences are recorded with your reason.</>}
        busy={action.busy}
        disabled={counts.length === 0 || reason.trim() === ''}
        onConfirm={() => void action.go()}
      />
      <Messages messages={action.messages} title="Not recorded:" />
    </form>
  );
}
