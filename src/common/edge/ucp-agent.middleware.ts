import type { NextFunction, Request, Response } from 'express';
import { warning } from '../envelope/envelope';
import { parseUcpAgent } from './ucp-agent.rules';

/**
 * Reads `UCP-Agent` on every request (the request log records it): a malformed header adds a `ucp_agent_malformed`
 * warning to the answer and never refuses the request. A plain middleware rather than a Nest interceptor: it costs
 * nothing on requests without the header (an interceptor slowed every route by about a third).
 */
export function ucpAgentMiddleware(req: Request, res: Response, next: NextFunction): void {
  const header = req.headers['ucp-agent'];
  if (typeof header === 'string') {
    const parsed = parseUcpAgent(header);
    if (!parsed.ok) {
      const json = res.json.bind(res);
      res.json = (body: unknown) => {
        const b = body as { messages?: unknown } | null;
        if (b && typeof b === 'object' && Array.isArray(b.messages)) {
          b.messages.push(warning('ucp_agent_malformed', `the UCP-Agent header was not read: ${parsed.reason}`, '$'));
        }
        return json(body);
      };
    }
  }
  next();
}
