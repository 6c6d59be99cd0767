/** Approvals: pending first with what each would do; approve or reject, with the owner credential when one is set. */
import { useState } from 'preact/hooks';
import { api, call, ownerHeaders, type Schemas } from '../api';
import { when, yuan } from '../format';
import { Empty, Loaded, Messages, useAction, useLoad } from '../ui';

type Approval = Schemas['ApprovalView'];

/** What approving would do, in words, from the approval's kind and subject (fields as the service records them). */
function wouldDo(a: Approval): string {
  const s = a.subject as Record<string, unknown>;
  const fen = (k: string) => (typeof s[k] === 'number' ? yuan({ amount: s[k] }) : '?');
  switch (a.kind) {
    case 'price_change':
      return `Change the price of ${String(s.item_id ?? s.vendor_sku ?? '?')} on machine ${String(s.location ?? a.location ?? '?')} from ${fen('current_fen')} to ${fen('price_fen')}, on the machine at once.`;
    case 'replenishment_run':
      return `Let run ${String(s.run_id ?? '?')} be placed for about ${fen('total_cost_fen')} (over the ${String(s.limit ?? '')} budget of ${fen('limit_fen')}): money moves when it is placed.`;
    case 'checkout_budget':
      return `Let purchase order ${String(s.session_id ?? '?')} (${fen('total_fen')} from ${String(s.namespace ?? '?')}) go over the budget: money moves on complete.`;
    case 'checkout_probation':
      return `Let purchase order ${String(s.session_id ?? '?')} (${fen('total_fen')}) order from ${String(s.namespace ?? '?')}, a vendor on probation.`;
    default:
      return a.summary;
  }
}

export function Approvals() {
  const [load, reload] = useLoad(async () => {
    const [pending, all] = await Promise.all([call(api.GET('/ucp/v1/approvals', { params: { query: { status: 'pending' } } })), call(api.GET('/ucp/v1/approvals', { params: { query: { status: 'all' } } }))]);
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
      { ownCredential: !!ownerHeaders(owner) },
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
