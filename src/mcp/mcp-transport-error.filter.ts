import { ArgumentsHost, Catch, ExceptionFilter, Inject, Logger, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { errorBody } from '../common/envelope/envelope';
import { challengeOf, toHttp } from '../common/errors/exception.filter';

/** UCP's JSON-RPC code of a transport failure: -32603 for an unexpected server error, -32000 for every other refusal. */
export function jsonRpcCodeOf(status: number): number {
  return status >= 500 && status !== 502 && status !== 503 ? -32603 : -32000;
}

/**
 * Failures of the MCP endpoint itself (authentication, method) keep the REST status (UCP: for MCP over HTTP the
 * status is the primary signal) and are answered as a JSON-RPC error whose `data` is the ucp envelope of the same
 * refusal. Tool outcomes never come here: they are tool results.
 */
@Catch()
export class McpTransportErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('McpTransport');

  constructor(@Optional() @Inject(APP_CONFIG) private readonly config: AppConfig | null = null) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const { status, messages } = toHttp(exception, this.logger);
    if (res.headersSent) return;
    if (status === 401) res.setHeader('WWW-Authenticate', challengeOf(host.switchToHttp().getRequest<Request>(), this.config));
    if (status === 405) res.setHeader('Allow', 'POST');
    res.status(status).json({
      jsonrpc: '2.0',
      id: null,
      error: { code: jsonRpcCodeOf(status), message: messages[0]?.content ?? 'refused', data: errorBody(messages) },
    });
  }
}
