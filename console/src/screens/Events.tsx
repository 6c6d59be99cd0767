/** Live events: the audit log newest first; events stored afterwards arrive over the socket without a reload. */
import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../api';
import { when } from '../format';
import { onLiveEvent, onLiveState, type LiveEvent, type LiveState } from '../live';
import { Loaded, useLoad } from '../ui';

export function Events() {
  const [load] = useLoad(() => call(api.GET('/ucp/v1/events', { params: { query: { limit: 100 } } })), []);
  const [arrived, setArrived] = useState<LiveEvent[]>([]);
  const [state, setState] = useState<LiveState>('closed');
  useEffect(() => onLiveEvent((e) => setArrived((a) => (a.some((x) => x.id === e.id) ? a : [e, ...a].slice(0, 500)))), []);
  useEffect(() => onLiveState(setState), []);
  return (
    <section aria-labelledby="events-title">
      <h1 id="events-title">Live events</h1>
      <p class="muted" role="status">
        Socket: {state === 'open' ? 'connected, new events appear at the top' : state}
      </p>
      <Loaded load={load} what="the events">
        {(d) => {
          const seen = new Set(arrived.map((e) => e.id));
          const all = [...arrived, ...d.events.filter((e) => !seen.has(e.id))];
          if (!all.length) return <p class="empty">No event recorded yet.</p>;
          return (
            <ol class="events" aria-live="polite" aria-label="Events, newest first">
              {all.map((e) => (
                <li key={e.id} class={seen.has(e.id) ? 'new' : ''}>
                  <span class="kind">{e.kind}</span> <time dateTime={e.occurred_at}>{when(e.occurred_at)}</time>
                  {e.location && <span class="muted"> · {e.location}</span>}
                  <p>{e.summary}</p>
                  {e.reasoning && <p class="muted">{e.reasoning}</p>}
                </li>
              ))}
            </ol>
          );
        }}
      </Loaded>
    </section>
  );
}
