/** One run: its lines, its approval state, placing it (a confirm step that says money moves) and receiving it. */
import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { fulfillerText, when, yuan } from '../format';
import { href } from '../route';
import { Confirm, Loaded, Messages, useAction, useLoad } from '../ui';

type Run = Schemas['RunResponse'];

export function RunDetail({ id, onChanged }: { id: string; onChanged: () => void }) {
  const [run, reload] = useLoad(() => call(api.GET('/ucp/v1/replenishment/runs/{id}', { params: { path: { id } } })), [id]);
  const done = () => {
    reload();
    onChanged();
  };
  return (
    <div class="card" aria-label={`Run ${id}`} role="region">
      <Loaded load={run} what={`run ${id}`}>
        {(r) => (
          <>
            <h3>
              Run {r.id}: <span class={`status ${r.status}`}>{r.status}</span>
            </h3>
            <Messages messages={r.messages} />
            <p>
              Fulfiller {fulfillerText(r.fulfiller)}; cost {yuan(r.total_cost_estimate)}
              {r.cost_is_estimated ? ' (estimate)' : ''}; created {when(r.created_at)}
              {r.placed_at ? `; placed ${when(r.placed_at)}` : ''}
              {r.supplier_order_id ? `; supplier order ${r.supplier_order_id}` : ''}.
            </p>
            {r.status === 'awaiting_approval' && (
              <p class="note">
                Waiting for an owner: <a href={href('approvals')}>approval {r.approval_id}</a>.
              </p>
            )}
            <RunLines run={r} />
            <RunOrders run={r} />
            {(r.status === 'ready' || r.status === 'placing') && <PlaceRun run={r} onDone={done} />}
            {r.fulfiller.kind === 'supply_checkout' && (r.status === 'ready' || r.status === 'awaiting_approval') && r.purchase_orders?.some((p) => p.status === 'incomplete') && (
              <DropRefused run={r} onDone={done} />
            )}
            {(r.status === 'ready' || r.status === 'awaiting_approval') && <CancelRun run={r} onDone={done} />}
            {r.status === 'placed' && <ReceiveRun run={r} onDone={done} />}
            {r.status === 'placed' && <CloseRun run={r} onDone={done} />}
          </>
        )}
      </Loaded>
    </div>
  );
}

function RunLines({ run }: { run: Run }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Slot</th>
            <th scope="col">Quantity</th>
            <th scope="col">Unit price</th>
            <th scope="col">Cost</th>
            <th scope="col">On order</th>
            <th scope="col">Received</th>
          </tr>
        </thead>
        <tbody>
          {run.lines.map((l) => (
            <tr key={l.slot_id}>
              <th scope="row">
                {l.title} <span class="muted">{l.slot_id}</span>
              </th>
              <td>
                {l.quantity} {l.unit} ({l.ordered_each} each)
              </td>
              <td>{yuan(l.unit_price)}</td>
              <td>{yuan(l.cost_estimate)}</td>
              <td>{l.on_order > 0 ? `${l.on_order} each` : '–'}</td>
              <td>{receivedText(run, l.slot_id)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What placing sent: one purchase order per supplier, or one restock order per machine. */
function RunOrders({ run }: { run: Run }) {
  if (!run.purchase_orders?.length && !run.restock_orders?.length) return null;
  return (
    <ul class="orders" aria-label="Orders of this run">
      {run.purchase_orders?.map((p) => (
        <li key={p.checkout_id}>
          Purchase order <a href={href('purchases', p.checkout_id)}>{p.checkout_id}</a> to {p.supplier}: <span class={`status ${p.status}`}>{p.status.replace(/_/g, ' ')}</span>, {yuan(p.total)}
        </li>
      ))}
      {run.restock_orders?.map((o) => (
        <li key={o.reference}>
          Restock order {o.reference} to {o.location} ({o.namespace}): <span class={`status ${o.status}`}>{o.status.replace(/_/g, ' ')}</span>
          {o.external_ref ? `, platform order ${o.external_ref}` : ''}
        </li>
      ))}
    </ul>
  );
}

function PlaceRun({ run, onDone }: { run: Run; onDone: () => void }) {
  // One key per placing attempt on this screen: a resend after a lost answer replays it instead of ordering twice.
  const [key] = useState(() => crypto.randomUUID());
  const action = useAction(async () => {
    await call(api.POST('/ucp/v1/replenishment/runs/{id}/place', { params: { path: { id: run.id }, header: { 'Idempotency-Key': `console-place-${run.id}-${key}` } }, body: { confirm: true } }));
    onDone();
  });
  return (
    <div>
      <Confirm
        label="Place this run…"
        confirmLabel="Yes, place the order (money moves)"
        warning={
          <>
            This orders {run.lines.length} lines from {fulfillerText(run.fulfiller)} for about {yuan(run.total_cost_estimate)}. <strong>Money moves</strong> and the order is sent once; it cannot be taken back here.
          </>
        }
        busy={action.busy}
        onConfirm={() => void action.go()}
      />
      {action.busy && <p role="status">Placing the order with the supplier…</p>}
      <Messages messages={action.messages} title="Not placed:" />
    </div>
  );
}

/** What a closed line got: its units, and what never came. */
function receivedText(run: Run, slot: string): string {
  const d = run.delivered?.find((x) => x.slot_id === slot);
  if (!d) return '–';
  if (d.closed) return `closed, ${d.shortfall ?? 0} never came`;
  return `${d.quantity} each${d.shortfall ? `, ${d.shortfall} short` : ''}`;
}

/** Receives line by line: a line left empty stays on order; a short quantity closes the line with its shortfall. */
function ReceiveRun({ run, onDone }: { run: Run; onDone: () => void }) {
  const open = run.lines.filter((l) => !run.delivered?.some((d) => d.slot_id === l.slot_id));
  const [qty, setQty] = useState<Record<string, string>>(() => Object.fromEntries(open.map((l) => [l.slot_id, String(l.ordered_each)])));
  const action = useAction(async () => {
    const delivered = open
      .filter((l) => (qty[l.slot_id] ?? '').trim() !== '')
      .map((l) => ({ slot_id: l.slot_id, quantity: Math.max(0, Math.floor(Number(qty[l.slot_id]))) }));
    await call(api.POST('/ucp/v1/replenishment/runs/{id}/receive', { params: { path: { id: run.id } }, body: { delivered } }));
    onDone();
  });
  return (
    <form
      class="receive"
      aria-label="Receive the delivery"
      onSubmit={(e) => {
        e.preventDefault();
        void action.go();
      }}
    >
      <h4>Receive the delivery</h4>
      <p class="muted">Units each per line; leave a line empty if it has not arrived yet (it stays on order).</p>
      {open.map((l) => (
        <div key={l.slot_id} class="row">
          <label for={`rcv-${l.slot_id}`}>{l.title} (units each)</label>
          <input id={`rcv-${l.slot_id}`} type="number" min="0" value={qty[l.slot_id]} onInput={(e) => setQty({ ...qty, [l.slot_id]: e.currentTarget.value })} />
        </div>
      ))}
      <button type="submit" class="primary" disabled={action.busy}>
        {action.busy ? 'Recording…' : 'Record the delivery'}
      </button>
      <Messages messages={action.messages} title="Not recorded:" />
    </form>
  );
}

/** Closing a placed run that will never arrive: its open lines leave on-order, with the reason recorded. */
function CloseRun({ run, onDone }: { run: Run; onDone: () => void }) {
  const [key] = useState(() => crypto.randomUUID());
  const [reason, setReason] = useState('');
  const action = useAction(async () => {
    await call(
      api.POST('/ucp/v1/replenishment/runs/{id}/close', {
        params: { path: { id: run.id }, header: { 'Idempotency-Key': `console-close-${run.id}-${key}` } },
        body: { reason: reason.trim(), confirm: true },
      }),
    );
    onDone();
  });
  return (
    <div class="close-run">
      <label for={`close-reason-${run.id}`}>Why will the rest never arrive?</label>
      <input id={`close-reason-${run.id}`} type="text" maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
      <Confirm
        label="Close this run…"
        confirmLabel="Yes, close it: the rest will not arrive"
        warning={<>The lines not received leave on-order with their whole quantity as shortfall, and the next plan orders them again if they are still needed.</>}
        busy={action.busy}
        danger
        disabled={reason.trim() === ''}
        onConfirm={() => void action.go()}
      />
      <Messages messages={action.messages} title="Not closed:" />
    </div>
  );
}

/** Cancelling a run not placed yet: nothing is sent, its pending approval is withdrawn. */
function CancelRun({ run, onDone }: { run: Run; onDone: () => void }) {
  const [key] = useState(() => crypto.randomUUID());
  const action = useAction(async () => {
    await call(
      api.POST('/ucp/v1/replenishment/runs/{id}/cancel', {
        params: { path: { id: run.id }, header: { 'Idempotency-Key': `console-cancel-${run.id}-${key}` } },
        body: { reason: 'cancelled from the console', confirm: true },
      }),
    );
    onDone();
  });
  return (
    <div>
      <Confirm
        label="Cancel this run…"
        confirmLabel="Yes, cancel it (nothing is ordered)"
        warning={<>The run will never be placed{run.status === 'awaiting_approval' ? ' and its pending approval is withdrawn' : ''}. A new run can be built from the plan.</>}
        busy={action.busy}
        danger
        onConfirm={() => void action.go()}
      />
      <Messages messages={action.messages} title="Not cancelled:" />
    </div>
  );
}

/** A purchase order refused some goods as unavailable: drop those lines, then place the rest. */
function DropRefused({ run, onDone }: { run: Run; onDone: () => void }) {
  const [key] = useState(() => crypto.randomUUID());
  const action = useAction(async () => {
    await call(
      api.POST('/ucp/v1/replenishment/runs/{id}/drop-refused-lines', {
        params: { path: { id: run.id }, header: { 'Idempotency-Key': `console-drop-${run.id}-${key}` } },
        body: { confirm: true },
      }),
    );
    onDone();
  });
  return (
    <div>
      <Confirm
        label="Drop the lines the supplier refused…"
        confirmLabel="Yes, drop them and keep the rest"
        warning={<>The goods a purchase order refused as unavailable leave this run; the rest can then be placed. The next plan looks for another supplier for them.</>}
        busy={action.busy}
        onConfirm={() => void action.go()}
      />
      <Messages messages={action.messages} title="Nothing dropped:" />
    </div>
  );
}
