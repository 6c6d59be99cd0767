/** Connected agents (issue 36): who a person let in, with what scope, when each was last used; disconnect at once. */
import { api, call } from '../api';
import { when } from '../format';
import { Confirm, Empty, Loaded, Messages, useAction, useLoad, useLiveReload } from '../ui';

export function Agents() {
  const [load, reload] = useLoad(() => call(api.GET('/ucp/v1/agents', {})), []);
  useLiveReload(reload, ['agent.connected', 'agent.disconnected']);
  const disconnect = useAction(async (clientId: string) => {
    await call(api.DELETE('/ucp/v1/agents/{client_id}', { params: { path: { client_id: clientId } } }));
    reload();
  });
  return (
    <section aria-labelledby="agents-title">
      <h1 id="agents-title">Connected agents</h1>
      <p class="muted">Assistants a person connected from their assistant app. Each acts with the scope granted, never with the owner's powers.</p>
      <Messages messages={disconnect.messages} title="Not disconnected:" />
      <Loaded load={load} what="the connected agents">
        {({ agents }) =>
          agents.length === 0 ? (
            <Empty>No agent is connected.</Empty>
          ) : (
            <table class="cards">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Returns to</th>
                  <th scope="col">Scope</th>
                  <th scope="col">Last use</th>
                  <th scope="col">Connected</th>
                  <th scope="col"><span class="sr-only">Action</span></th>
                </tr>
              </thead>
              <tbody>
                {agents.map((a) => (
                  <tr key={a.client_id}>
                    <td data-label="Name">{a.name}</td>
                    <td data-label="Returns to">{a.redirect_host ?? 'unknown'}</td>
                    <td data-label="Scope">{a.scope === 'read' ? 'Read only' : 'Operate'}</td>
                    <td data-label="Last use">{a.last_used_at ? when(a.last_used_at) : 'never'}</td>
                    <td data-label="Connected">
                      {when(a.connected_at)} by {a.consented_by}
                    </td>
                    <td>
                      <Confirm label={`Disconnect ${a.name}…`} confirmLabel="Yes, disconnect now" warning={`${a.name} is refused from its next request, on every instance; to use it again, a person connects it again.`} danger busy={disconnect.busy} onConfirm={() => void disconnect.go(a.client_id)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </section>
  );
}
