/**
 * The person's consent for an agent (issue 36): the authorization server sends the browser here with the pending
 * request's id; the person, signed in, sees which client asks for what and picks read only or operate.
 */
import { useState } from 'preact/hooks';
import { api, call } from '../api';
import { when } from '../format';
import { Loaded, Messages, useAction, useLoad } from '../ui';

export function Connect({ uid }: { uid: string }) {
  const [load] = useLoad(() => call(api.GET('/ucp/v1/agents/requests/{uid}', { params: { path: { uid } } })), [uid]);
  const [scope, setScope] = useState<'read' | 'operate'>('read');
  const decide = useAction(async (approve: boolean) => {
    const r = await call(api.POST('/ucp/v1/agents/requests/{uid}', { params: { path: { uid } }, body: approve ? { approve, scope } : { approve } }));
    // The authorization server takes it from here and sends the browser back to the agent.
    window.location.assign(r.redirect_to);
  });
  return (
    <section aria-labelledby="connect-title">
      <h1 id="connect-title">Connect an agent</h1>
      <Loaded load={load} what="the agent's request">
        {({ request: r }) => (
          <div class="card consent">
            <p>
              <strong>{r.client_name ?? 'An unnamed client'}</strong> asks to use this service on your behalf.
            </p>
            <dl class="rules">
              <dt>Name</dt>
              <dd>{r.client_name ?? '(none given)'}: the client chose it; it is not verified.</dd>
              <dt>Sends you back to</dt>
              <dd>{r.redirect_host ?? 'unknown'}</dd>
              <dt>Client id</dt>
              <dd class="mono">{r.client_id}</dd>
              <dt>Asks for</dt>
              <dd>{r.asked_scopes.length ? r.asked_scopes.map(scopeWords).join('; ') : 'nothing named (you choose)'}</dd>
              <dt>Request expires</dt>
              <dd>{when(r.expires_at)}</dd>
            </dl>
            <fieldset>
              <legend>What may it do?</legend>
              {r.choices.map((c) => (
                <label key={c.scope} class="choice">
                  <input type="radio" name="scope" value={c.scope} checked={scope === c.scope} onChange={() => setScope(c.scope)} />
                  <span>{c.words}</span>
                </label>
              ))}
            </fieldset>
            <p class="muted">It never gets the owner's powers: approvals, releasing the kill switch and guard rules stay with the approver credential. You can disconnect it at any time under Agents.</p>
            <button type="button" class="primary" disabled={decide.busy} onClick={() => void decide.go(true)}>
              {decide.busy ? 'Connecting…' : `Connect (${scope === 'read' ? 'read only' : 'operate'})`}
            </button>{' '}
            <button type="button" disabled={decide.busy} onClick={() => void decide.go(false)}>
              Refuse
            </button>
            <Messages messages={decide.messages} title="Not done:" />
          </div>
        )}
      </Loaded>
    </section>
  );
}

/** What an asked scope means, in words (a person never reads OAuth's scope names). */
function scopeWords(scope: string): string {
  switch (scope) {
    case 'read':
      return 'to read';
    case 'operate':
      return 'to operate';
    case 'offline_access':
      return 'to stay connected (it renews its access until you disconnect it)';
    case 'openid':
      return 'to know who connected it';
    default:
      return 'a permission this service does not have (it will not get it)';
  }
}
