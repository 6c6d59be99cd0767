import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { errorBody } from '../common/envelope';
import { toHttp } from '../common/exception.filter';

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

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const { status, messages } = toHttp(exception, this.logger);
    if (res.headersSent) return;
    if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="ucp"');
    if (status === 405) res.setHeader('Allow', 'POST');
    res.status(status).json({
      jsonrpc: '2.0',
      id: null,
      error: { code: jsonRpcCodeOf(status), message: messages[0]?.content ?? 'refused', data: errorBody(messages) },
    });
  }
}
