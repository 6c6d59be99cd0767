/**
 * One run: its lines (machines by name, slots by position, the box each slot's units come from), its approval state,
 * placing it (a confirm step that says money moves), its goods arriving at the warehouse or delivered into the
 * machines, closing what never comes. Times are said against the service's day.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { fulfillerText, statusWord, yuan } from '../format';
import { href } from '../route';
import { dayWhen, useServiceDay } from '../service-day';
import { useMachineNames } from '../slot-names';
import { Confirm, Loaded, Messages, useAction, useLoad } from '../ui';
import { RecordArrival, ReceiveRun } from './RunArrivals';
import { RunLines } from './RunLines';

type Run = Schemas['RunResponse'];

export function RunDetail({ id, onChanged }: { id: string; onChanged: () => void }) {
  const [run, reload] = useLoad(() => call(api.GET('/ucp/v1/replenishment/runs/{id}', { params: { path: { id } } })), [id]);
  const names = useMachineNames();
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => setNotice(null), [id]);
  const day = useServiceDay()?.day ?? null;
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
              Run {r.id}: <span class={`status ${r.status}`}>{statusWord(r.status)}</span>
            </h3>
            <Messages messages={r.messages} />
            {notice && (
              <p class="result" role="status">
                {notice}
              </p>
            )}
            <p>
              Fulfiller {fulfillerText(r.fulfiller)}; cost {yuan(r.total_cost_estimate)}
              {r.cost_is_estimated ? ' (estimate)' : ''}; created {dayWhen(r.created_at, day)}
              {r.placed_at ? `; placed ${dayWhen(r.placed_at, day)}` : ''}
              {r.delivered_at ? `; done ${dayWhen(r.delivered_at, day)}` : ''}
              {r.supplier_order_id ? `; supplier order ${r.supplier_order_id}` : ''}.
            </p>
            {r.status === 'awaiting_approval' && (
              <p class="note">
                Waiting for an owner: <a href={href('approvals')}>approval {r.approval_id}</a>.
              </p>
            )}
            <RunLines run={r} names={names} />
            <RunOrders run={r} />
            {(r.status === 'ready' || r.status === 'placing') && <PlaceRun run={r} onDone={done} />}
            {r.fulfiller.kind === 'supply_checkout' && (r.status === 'ready' || r.status === 'awaiting_approval') && r.purchase_orders?.some((p) => p.status === 'incomplete') && (
              <DropRefused run={r} onDone={done} />
            )}
            {(r.status === 'ready' || r.status === 'awaiting_approval') && <CancelRun run={r} onDone={done} />}
            {r.status === 'placed' && <RecordArrival run={r} names={names} onDone={(text) => (setNotice(text), done())} />}
            {r.status === 'placed' && <ReceiveRun run={r} names={names} onDone={done} />}
            {r.status === 'placed' && <CloseRun run={r} onDone={done} />}
          </>
        )}
      </Loaded>
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
          Purchase order <a href={href('purchases', p.checkout_id)}>{p.checkout_id}</a> to {p.supplier}: <span class={`status ${p.status}`}>{statusWord(p.status)}</span>, {yuan(p.total)}
        </li>
      ))}
      {run.restock_orders?.map((o) => (
        <li key={o.reference}>
          Restock order {o.reference} to {o.location} ({o.namespace}): <span class={`status ${o.status}`}>{statusWord(o.status)}</span>
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
