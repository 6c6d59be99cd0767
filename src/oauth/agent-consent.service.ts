import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/auth/credential';
import { DomainError, Errors } from '../common/errors/errors';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { AgentsStore, ConnectedAgent } from './agents.store';
import { OAuthServer } from './oauth-server.service';
import { AgentScope, grantableScopes, redirectHost, resourceOf, SCOPE_WORDS } from './oauth.rules';

export interface AgentRequest {
  uid: string;
  clientId: string;
  clientName: string | null;
  redirectHost: string | null;
  askedScopes: string[];
  choices: AgentScope[];
  expiresAt: Date;
}

/** Only a person (signed in to the console, or holding the operator or approver token) connects or disconnects agents. */
function assertPerson(caller: Caller): 'operator' | 'approver' {
  if (caller.credential === 'operator' || caller.credential === 'approver') return caller.credential;
  throw Errors.forbidden('only a person signed in with the operator or approver credential connects or disconnects agents');
}

/**
 * The person's side of the authorization (issue 36): what a pending authorization asks, the person's decision (a
 * grant of `read` or `operate` on this service only, saved as the authorization's result), and the connected agents.
 */
@Injectable()
export class AgentConsentService {
  constructor(
    private readonly oauth: OAuthServer,
    private readonly agents: AgentsStore,
    private readonly events: EventsService,
    private readonly tx: Tx,
  ) {}

  async request(uid: string, base: string, caller: Caller): Promise<AgentRequest> {
    assertPerson(caller);
    const provider = await this.oauth.providerFor(base);
    const interaction = await provider.Interaction.find(uid);
    if (!interaction) throw Errors.notFound(`authorization request ${uid} (it expires after 15 minutes; start again from the agent)`);
    const params = interaction.params as { client_id?: string; scope?: string; redirect_uri?: string };
    const client = params.client_id ? await provider.Client.find(params.client_id) : undefined;
    if (!client) throw Errors.notFound(`the client of authorization request ${uid}`);
    return {
      uid,
      clientId: client.clientId,
      clientName: client.clientName ?? null,
      redirectHost: redirectHost(params.redirect_uri),
      askedScopes: (params.scope ?? '').split(' ').filter(Boolean),
      choices: grantableScopes(params.scope),
      expiresAt: new Date((interaction.exp ?? 0) * 1000),
    };
  }

  /** Saves the decision as the authorization's result; the browser then resumes at `redirect_to`. */
  async decide(uid: string, base: string, caller: Caller, d: { approve: boolean; scope?: AgentScope }): Promise<{ redirectTo: string; approved: boolean }> {
    const account = assertPerson(caller);
    const req = await this.request(uid, base, caller);
    const provider = await this.oauth.providerFor(base);
    const interaction = await provider.Interaction.find(uid);
    if (!interaction) throw Errors.notFound(`authorization request ${uid}`);
    if (!d.approve) {
      interaction.result = { error: 'access_denied', error_description: 'the person refused to connect this agent' };
    } else {
      if (!d.scope) throw Errors.invalid('$.scope', 'choose the scope to grant: read or operate');
      if (!req.choices.includes(d.scope)) throw new DomainError('invalid', `the agent asked for ${req.askedScopes.join(' ') || 'nothing'}; ${d.scope} cannot be granted`, { path: '$.scope' });
      const grant = new provider.Grant({ accountId: account, clientId: req.clientId });
      // A scope the person did not grant is recorded as refused, so the authorization completes with what was granted.
      const granted = d.scope === 'operate' ? 'read operate' : 'read';
      grant.addResourceScope(resourceOf(base), granted);
      // The same words are server scopes too (a client may register with them); staying signed in (refresh tokens,
      // `offline_access`) and `openid` come with any grant: neither adds a power.
      const plain = req.askedScopes.filter((x) => x === 'offline_access' || x === 'openid');
      grant.addOIDCScope([granted, ...plain].join(' '));
      if (d.scope === 'read') {
        grant.rejectResourceScope(resourceOf(base), 'operate');
        grant.rejectOIDCScope('operate');
      }
      const grantId = await grant.save();
      interaction.result = { login: { accountId: account }, consent: { grantId } };
      await this.tx.run(async () => {
        await this.agents.connected({ clientId: req.clientId, name: req.clientName ?? req.clientId, scope: d.scope!, account, redirectHost: req.redirectHost });
        await this.events.record({
          kind: 'agent.connected',
          summary: `agent ${req.clientName ?? req.clientId} connected (${d.scope})`,
          reasoning: `the ${account} consented in the console: ${SCOPE_WORDS[d.scope!]}`,
          data: { client_id: req.clientId, scope: d.scope, consented_by: account },
        });
      });
    }
    await interaction.save(Math.max(1, (interaction.exp ?? 0) - Math.floor(Date.now() / 1000)));
    return { redirectTo: interaction.returnTo, approved: d.approve };
  }

  list(caller: Caller): Promise<ConnectedAgent[]> {
    assertPerson(caller);
    return this.agents.list();
  }

  /** Disconnects at once: its grants and tokens are deleted, so every instance refuses its next request. */
  async disconnect(clientId: string, caller: Caller): Promise<ConnectedAgent> {
    const account = assertPerson(caller);
    return this.tx.run(async () => {
      const agent = await this.agents.disconnect(clientId);
      if (!agent) throw Errors.notFound(`connected agent ${clientId}`);
      await this.events.record({
        kind: 'agent.disconnected',
        summary: `agent ${agent.name} disconnected`,
        reasoning: `the ${account} disconnected it in the console; its tokens are refused from now on`,
        data: { client_id: clientId },
      });
      return agent;
    });
  }
}
