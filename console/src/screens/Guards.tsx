/** Guards and the kill switch: the rules as they stand, and one clear control to stop all spending. */
import { useState } from 'preact/hooks';
import { api, call, ownerHeaders, type KillSwitch } from '../api';
import { when, yuan } from '../format';
import { Confirm, Loaded, Messages, useAction, useLoad } from '../ui';

export function Guards({ kill, onKillChanged }: { kill: KillSwitch | null; onKillChanged: (k: KillSwitch) => void }) {
  const [load, reload] = useLoad(() => call(api.GET('/ucp/v1/admin/guards', {})), [kill?.engaged]);
  const [reason, setReason] = useState('');
  const [owner, setOwner] = useState('');
  const set = useAction(async (engaged: boolean) => {
    const r = await call(api.PUT('/ucp/v1/admin/kill-switch', { body: { engaged, reason: reason.trim() || (engaged ? 'stopped from the operator console' : 'released from the operator console') }, headers: engaged ? undefined : ownerHeaders(owner) }), { ownCredential: !engaged && !!ownerHeaders(owner) });
    setReason('');
    setOwner('');
    onKillChanged(r.kill_switch);
    reload();
  });
  const engaged = kill?.engaged ?? false;
  return (
    <section aria-labelledby="guards-title">
      <h1 id="guards-title">Guards and kill switch</h1>
      <div class={`card killswitch ${engaged ? 'engaged' : ''}`}>
        <h2>Kill switch: {engaged ? 'ENGAGED (all spending stopped)' : 'released (spending allowed within the rules)'}</h2>
        {kill?.changed_at && (
          <p class="muted">
            Changed {when(kill.changed_at)}
            {kill.reason ? `: ${kill.reason}` : ''}
          </p>
        )}
        <label for="kill-reason">Reason</label>
        <input id="kill-reason" value={reason} maxLength={500} onInput={(e) => setReason(e.currentTarget.value)} />
        {engaged ? (
          <>
            <label for="kill-owner">Owner credential (only if this deployment sets one; used once, never stored)</label>
            <input id="kill-owner" type="password" autoComplete="off" value={owner} onInput={(e) => setOwner(e.currentTarget.value)} />
            <Confirm label="Release the kill switch…" confirmLabel="Yes, allow spending again" warning="Checkout, price changes, restock and run placing work again, within the guard rules." busy={set.busy} onConfirm={() => void set.go(false)} />
          </>
        ) : (
          <button type="button" class="danger big" disabled={set.busy} onClick={() => void set.go(true)}>
            {set.busy ? 'Stopping…' : 'Stop all spending'}
          </button>
        )}
        <Messages messages={set.messages} title="Kill switch not changed:" />
      </div>
      <h2>Rules</h2>
      <Loaded load={load} what="the guard rules">
        {(g) => (
          <>
            {!g.verifiable && <Messages messages={[{ type: 'error', code: 'guard_unverifiable', severity: 'unrecoverable', path: '$', content: g.problem ?? 'the guard rules cannot be read: money-moving writes are refused', content_type: 'plain' }]} />}
            {g.guards && (
              <dl class="rules">
                <dt>Budget per order</dt>
                <dd>{yuan({ amount: g.guards.budget.perOrderFen })}</dd>
                <dt>Budget per day</dt>
                <dd>{yuan({ amount: g.guards.budget.dailyFen })}</dd>
                <dt>Budget per month</dt>
                <dd>{yuan({ amount: g.guards.budget.monthlyFen })}</dd>
                <dt>Price move cap per item</dt>
                <dd>
                  {yuan({ amount: g.guards.priceCapPerItem.maxMoveFen })} or {g.guards.priceCapPerItem.maxMovePercent}%
                </dd>
                <dt>Vendors on probation</dt>
                <dd>{g.guards.probationVendors?.length ? g.guards.probationVendors.join(', ') : 'none'}</dd>
                <dt>Never order from</dt>
                <dd>{g.guards.hardNoGo?.vendors?.length ? g.guards.hardNoGo.vendors.join(', ') : 'none'}</dd>
                <dt>Never order goods</dt>
                <dd>{g.guards.hardNoGo?.skus?.length ? g.guards.hardNoGo.skus.join(', ') : 'none'}</dd>
              </dl>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}
