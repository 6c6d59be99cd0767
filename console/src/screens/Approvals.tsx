/**
 * Approvals a person can judge: who asked, what changes (old and new, the change in percent, flagged when large),
 * what it costs against which budget and how much of it is spent today; approve or reject through a confirm step,
 * with a result message. Follows the event socket.
 */
import { useCallback, useState } from 'preact/hooks';
import { api, call, ownerHeaders, type Schemas } from '../api';
import { fenText, statusWord, when } from '../format';
import { href } from '../route';
import { Confirm, Empty, Loaded, Messages, useAction, useLiveReload, useLoad } from '../ui';
import { judge, requesterWords, shownOf, spendWords, type Budget, type Names, type Shown } from './approval-words';

type Approval = Schemas['ApprovalView'];

/** Machine names from the fleet, product names from the plan's slots (read with the machine platform's traits: no supplier is called). */
async function readNames(): Promise<Names> {
  const names: Names = { machines: new Map(), products: new Map() };
  const [fleet, plan] = await Promise.all([
    call(api.GET('/ucp/v1/fleet', {})).catch(() => null),
    call(api.GET('/ucp/v1/replenishment/plan', { params: { query: { fulfiller: 'machine_restock' } } })).catch(() => null),
  ]);
  // Names are a nicety: ids stand in for them when a read fails.
  for (const m of fleet?.machines ?? []) names.machines.set(m.id, m.name);
  for (const l of plan?.slots ?? []) names.products.set(l.item.id, l.title);
  return names;
}

export function Approvals() {
  const [load, reload] = useLoad(async () => {
    const [pending, all, budget, names] = await Promise.all([
      call(api.GET('/ucp/v1/approvals', { params: { query: { status: 'pending' } } })),
      call(api.GET('/ucp/v1/approvals', { params: { query: { status: 'all' } } })),
      call(api.GET('/ucp/v1/budget', {})).catch(() => null),
      readNames(),
    ]);
    return { pending: pending.approvals, resolved: all.approvals.filter((a) => a.status !== 'pending'), budget, names };
  }, []);
  useLiveReload(reload, ['approval.']);
  const [owner, setOwner] = useState('');
  const [outcome, setOutcome] = useState<string | null>(null);
  const onResolved = useCallback(
    (text: string) => {
      setOwner('');
      setOutcome(text);
      reload();
    },
    [reload],
  );
  return (
    <section aria-labelledby="appr-title">
      <h1 id="appr-title">Approvals</h1>
      {outcome && (
        <p class="result card" role="status">
          {outcome}
        </p>
      )}
      <div class="owner">
        <label for="owner-token">Owner credential (only if this deployment sets one; used for one decision, never stored)</label>
        <input id="owner-token" type="password" autoComplete="off" value={owner} onInput={(e) => setOwner(e.currentTarget.value)} />
      </div>
      <Loaded load={load} what="the approvals">
        {(d) => (
          <>
            <h2>Waiting for a decision ({d.pending.length})</h2>
            {d.pending.length === 0 ? (
              <Empty>Nothing waits for an owner.</Empty>
            ) : (
              d.pending.map((a) => <PendingApproval key={a.id} a={a} owner={owner} names={d.names} budget={d.budget} onResolved={onResolved} />)
            )}
            <h2>Decided</h2>
            {d.resolved.length === 0 ? (
              <Empty>None decided yet.</Empty>
            ) : (
              <table class="cards">
                <thead>
                  <tr>
                    <th scope="col">Request</th>
                    <th scope="col">Decision</th>
                    <th scope="col">Asked by</th>
                    <th scope="col">Decided</th>
                  </tr>
                </thead>
                <tbody>
                  {d.resolved.map((a) => {
                    const j = judge(a, d.names, d.budget);
                    return (
                      <tr key={a.id}>
                        <th scope="row">
                          {j.title}: {j.change}
                        </th>
                        <td data-label="Decision">
                          <span class={`status ${a.status}`}>{statusWord(a.status)}</span>
                        </td>
                        <td data-label="Asked by">{requesterWords(a.requested_by)}</td>
                        <td data-label="Decided">{when(a.resolved_at)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

function PendingApproval(p: { a: Approval; owner: string; names: Names; budget: Budget | null; onResolved: (text: string) => void }) {
  const { a, owner } = p;
  const j = judge(a, p.names, p.budget);
  const action = useAction(async (approved: boolean) => {
    const r = await call(
      api.POST('/ucp/v1/approvals/{id}', {
        params: { path: { id: a.id } },
        body: { approved, resolver: { channel: 'dashboard', sender_id: 'operator-console' } },
        headers: ownerHeaders(owner),
      }),
      { ownCredential: !!ownerHeaders(owner) },
    );
    p.onResolved(r.approval.status === 'approved' ? `Approved: ${j.approveMeans}. (${j.change})` : `Rejected: nothing changes. (${j.change})`);
  });
  // A request made in this console can be taken back by its requester (no approver needed: nothing happens).
  const mine = a.requested_by?.channel === 'console';
  const withdraw = useAction(async () => {
    await call(api.POST('/ucp/v1/approvals/{id}/withdraw', { params: { path: { id: a.id } }, body: { reason: 'withdrawn by its requester in the console' } }));
    p.onResolved(`Withdrawn: your request is taken back; nothing changes. (${j.change})`);
  });
  const c = j.cost;
  const shown = shownOf(a);
  return (
    <article class="card approval" aria-labelledby={`appr-${a.id}`}>
      <h3 id={`appr-${a.id}`}>{j.title}</h3>
      <dl class="rules">
        <dt>Asked by</dt>
        <dd>
          {requesterWords(a.requested_by)}, {when(a.requested_at)}
        </dd>
        <dt>What changes</dt>
        <dd>
          {j.change}
          {j.percent !== null && ` (${j.percent > 0 ? '+' : ''}${j.percent}%)`}
          {j.large && <span class="flag"> Large change: check it</span>}
        </dd>
        <dt>What it approves</dt>
        <dd>
          <Approves shown={shown} />
        </dd>
        {c && (
          <>
            <dt>Cost</dt>
            <dd>
              {fenText(c.fen)}, over the {c.against}
              {c.limitFen !== null && ` of ${fenText(c.limitFen)}`}.{p.budget && <> {spendWords(p.budget)}</>}
            </dd>
          </>
        )}
        <dt>Approving means</dt>
        <dd>{j.approveMeans}.</dd>
      </dl>
      <div class="actions">
        <Confirm
          label="Approve…"
          confirmLabel={`Yes, approve: ${j.approveMeans}`}
          warning={
            <>
              <p>Approve? {j.change}.</p>
              <Approves shown={shown} />
            </>
          }
          busy={action.busy}
          onConfirm={() => void action.go(true)}
        />
        <Confirm label="Reject…" confirmLabel="Yes, reject it (nothing changes)" warning={<>Reject? {j.change}.</>} busy={action.busy} danger onConfirm={() => void action.go(false)} />
        {mine && (
          <Confirm label="Withdraw my request…" confirmLabel="Yes, take my request back (nothing changes)" warning={<>Withdraw your request? {j.change}.</>} busy={withdraw.busy} onConfirm={() => void withdraw.go()} />
        )}
        {(action.busy || withdraw.busy) && <span role="status">Recording the decision…</span>}
      </div>
      <Messages messages={[...action.messages, ...withdraw.messages]} title="Not decided:" />
    </article>
  );
}

/** What an approval approves, line by line, with where the goods go and a link to what it is about (issue 37). */
function Approves({ shown }: { shown: Shown }) {
  return (
    <div class="approves">
      {shown.lines.length > 0 && (
        <ul>
          {shown.lines.map((l) => (
            <li key={l.key}>{l.text}</li>
          ))}
        </ul>
      )}
      {shown.destination && <p>Goes: {shown.destination}.</p>}
      {shown.supplier && <p>From: {shown.supplier}.</p>}
      {shown.open && (
        <p>
          <a href={href(shown.open.screen, shown.open.id)}>{shown.open.label}</a>
        </p>
      )}
    </div>
  );
}
