import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { map, Observable } from 'rxjs';
import { warning } from './envelope';
import { parseUcpAgent } from './ucp-agent.rules';

/**
 * Reads `UCP-Agent` on every request (it is also recorded in the request log): a malformed header adds a
 * `ucp_agent_malformed` warning to the answer and never refuses the request.
 */
@Injectable()
export class UcpAgentInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const header = ctx.switchToHttp().getRequest<Request>().headers['ucp-agent'];
    if (typeof header !== 'string') return next.handle();
    const parsed = parseUcpAgent(header);
    if (parsed.ok) return next.handle();
    return next.handle().pipe(
      map((body: unknown) => {
        const b = body as { messages?: unknown } | null;
        if (b && typeof b === 'object' && Array.isArray(b.messages)) {
          b.messages.push(warning('ucp_agent_malformed', `the UCP-Agent header was not read: ${parsed.reason}`, '$'));
        }
        return body;
      }),
    );
  }
}
