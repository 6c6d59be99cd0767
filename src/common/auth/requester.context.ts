/**
 * The requester of the request in progress, kept for its whole async life so an approval created deep inside a
 * service records who asked without every service passing it along. An MCP tool call runs its REST operation inside
 * the outer MCP request: the outer requester (channel `mcp`) is kept, not replaced by the inner request's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../../config/app-config';
import { requestAuth } from './credential';
import { parseUcpAgent } from '../edge/ucp-agent.rules';
import { Requester, requesterOf } from './requester.rules';

const storage = new AsyncLocalStorage<Requester>();

/** The current request's requester; `service` outside any request (jobs, recovery). */
export function currentRequester(): Requester {
  return storage.getStore() ?? { channel: 'service' };
}

export function requesterContext(config: AppConfig) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const header = req.headers['ucp-agent'];
    const agent = typeof header === 'string' ? parseUcpAgent(header) : null;
    const outer = storage.getStore();
    if (outer) {
      // A tool call's REST request: the tool's `meta["ucp-agent"]` names the agent behind the MCP session.
      if (agent?.ok && agent.profile && !outer.agent) return storage.run({ ...outer, agent: agent.profile.slice(0, 200) }, next);
      return next();
    }
    const auth = requestAuth(req, config);
    const requester = requesterOf({
      path: req.path,
      via: auth.ok ? auth.via : null,
      credential: auth.ok ? auth.credential : null,
      agentProfile: agent && agent.ok ? agent.profile : null,
      clientId: auth.ok ? (auth.agent?.clientId ?? null) : null,
    });
    storage.run(requester, next);
  };
}
