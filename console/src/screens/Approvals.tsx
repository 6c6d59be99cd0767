/** Approvals: pending first with what each would do; approve or reject, with the owner credential when one is set. */
import { useState } from 'preact/hooks';
import { api, call, ownerHeaders, type Schemas } from '../api';
import { when, yuan } from '../format';
import { Empty, Loaded, Messages, useAction, useLoad } from '../ui';

type Approval = Schemas['ApprovalView'];

/** What approving would do, in words, from the approval's kind and subject. */
function wouldDo(a: Approval): string {
  const s = a.subject as Record<string, unknown>;
  const money = (v: unknown) => (v && typeof v === 'object' && 'amount' in v ? yuan(v as { amount: number }) : typeof v === 'number' ? yuan({ amount: v }) : null);
  switch (a.kind) {
    case 'price_change':
      return `Change the price on machine ${a.location ?? '?'}${money(s.previous) ? ` from ${money(s.previous)}` : ''}${money(s.price) ? ` to ${money(s.price)}` : ''}.`;
    case 'replenishment_run':
      return `Let run ${String(s.run_id ?? s.run ?? '')} be placed${money(s.total ?? s.total_cost_estimate) ? ` (about ${money(s.total ?? s.total_cost_estimate)})` : ''}: money moves when it is placed.`;
    case 'checkout_budget':
      return `Let purchase order ${String(s.session_id ?? s.checkout_id ?? '')} go over the budget${money(s.total) ? ` (${money(s.total)})` : ''}: money moves on complete.`;
    case 'checkout_probation':
      return `Let purchase order ${String(s.session_id ?? s.checkout_id ?? '')} order from a vendor on probation.`;
    default:
      return a.summary;
  }
}

export function Approvals() {
  const [load, reload] = useLoad(async () => {
    const [pending, all] = await Promise.all([call(api.GET('/ucp/v1/approvals', { params: { query: { status: 'pending' } } })), call(api.GET('/ucp/v1/approvals', {}))]);
    return { pending: pending.approvals, resolved: all.approvals.filter((a) => a.status !== 'pending') };
  }, []);
  const [owner, setOwner] = useState('');
  return (
    <section aria-labelledby="appr-title">
      <h1 id="appr-title">Approvals</h1>
      <div class="owner">
        <label for="owner-token">Owner credential (only if this deployment sets one; used for one decision, never stored)</label>
        <input id="owner-token" type="password" autoComplete="off" value={owner} onInput={(e) => setOwner(e.currentTarget.value)} />
      </div>
      <Loaded load={load} what="the approvals">
        {(d) => (
          <>
            <h2>Pending ({d.pending.length})</h2>
            {d.pending.length === 0 ? <Empty>Nothing waits for an owner.</Empty> : d.pending.map((a) => <PendingApproval key={a.id} a={a} owner={owner} onResolved={() => (setOwner(''), reload())} />)}
            <h2>Resolved</h2>
            {d.resolved.length === 0 ? (
              <Empty>None resolved yet.</Empty>
            ) : (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Approval</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Status</th>
                      <th scope="col">Summary</th>
                      <th scope="col">Resolved</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.resolved.map((a) => (
                      <tr key={a.id}>
                        <th scope="row">{a.id}</th>
                        <td>{a.kind}</td>
                        <td>
                          <span class={`status ${a.status}`}>{a.status}</span>
                        </td>
                        <td>{a.summary}</td>
                        <td>{when(a.resolved_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

function PendingApproval({ a, owner, onResolved }: { a: Approval; owner: string; onResolved: () => void }) {
  const [result, setResult] = useState<Approval | null>(null);
  const action = useAction(async (approved: boolean) => {
    const r = await call(
      api.POST('/ucp/v1/approvals/{id}', {
        params: { path: { id: a.id } },
        body: { approved, resolver: { channel: 'dashboard', sender_id: 'operator-console' } },
        headers: ownerHeaders(owner),
      }),
    );
    setResult(r.approval);
    onResolved();
  });
  return (
    <article class="card approval" aria-labelledby={`appr-${a.id}`}>
      <h3 id={`appr-${a.id}`}>
        {a.kind.replace(/_/g, ' ')} <span class="muted">{a.id}</span>
      </h3>
      <p>{a.summary}</p>
      <p>
        <strong>Approving would:</strong> {wouldDo(a)}
      </p>
      <p class="muted">Requested {when(a.requested_at)}{a.location ? ` for machine ${a.location}` : ''}.</p>
      <div class="actions">
        <button type="button" class="primary" disabled={action.busy} onClick={() => void action.go(true)}>
          Approve
        </button>
        <button type="button" class="danger" disabled={action.busy} onClick={() => void action.go(false)}>
          Reject
        </button>
        {action.busy && <span role="status">Recording the decision…</span>}
      </div>
      <Messages messages={action.messages} title="Not resolved:" />
      {result && <p role="status">Resolved: {result.status}.</p>}
    </article>
  );
}
