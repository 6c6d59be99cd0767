import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { errorBody, message, UcpMessage } from './envelope';
import { DomainError } from './errors';

/**
 * The one place failures become HTTP: every error is the ucp envelope with messages[], never a stack trace.
 * Unknown errors are logged (without request headers) and answered 500 `internal_error`.
 */
@Catch()
export class UcpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('UcpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const res = host.switchToHttp().getResponse<Response>();
    const { status, messages, body } = toHttp(exception, this.logger);
    if (res.headersSent) return;
    res.status(status).json({ ...errorBody(messages), ...(body ?? {}) });
  }
}

export function toHttp(
  exception: unknown,
  logger?: Logger,
): { status: number; messages: UcpMessage[]; body?: Record<string, unknown> } {
  if (exception instanceof DomainError) {
    return { status: exception.status, messages: exception.messages, body: exception.body };
  }
  const bodyParser = exception as { type?: string; status?: number; statusCode?: number };
  if (bodyParser && typeof bodyParser.type === 'string') {
    if (bodyParser.type === 'entity.too.large') {
      return { status: 400, messages: [message('request_too_large', 'recoverable', 'the request body exceeds the size limit')] };
    }
    if (bodyParser.type === 'entity.parse.failed') {
      return { status: 400, messages: [message('invalid', 'recoverable', 'the request body is not valid JSON')] };
    }
    if (bodyParser.type === 'encoding.unsupported' || bodyParser.type === 'charset.unsupported') {
      return { status: 400, messages: [message('invalid', 'recoverable', 'unsupported request encoding')] };
    }
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) return { status, messages: [message('not_found', 'unrecoverable', 'no such route')] };
    if (status === 413) {
      return { status: 400, messages: [message('request_too_large', 'recoverable', 'the request body exceeds the size limit')] };
    }
    if (status === 400) return { status, messages: [message('invalid', 'recoverable', exception.message)] };
    if (status === 405) return { status, messages: [message('method_not_allowed', 'unrecoverable', exception.message)] };
    if (status < 500) return { status, messages: [message('invalid', 'unrecoverable', exception.message)] };
  }
  logger?.error(`unhandled error: ${(exception as Error)?.stack ?? String(exception)}`);
  return { status: 500, messages: [message('internal_error', 'unrecoverable', 'internal error; see the service log')] };
}
