import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Logger, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { unauthorizedChallenge } from '../auth/bearer-challenge.rules';
import { bearerFrom } from '../auth/token';
import { publicBase } from '../public-url';
import { errorBody, message, UcpMessage } from '../envelope/envelope';
import { DomainError } from './errors';
import { statusOf } from './error-status.rules';
import { lostConnectionError } from './lost-connection';

/**
 * The one place failures become HTTP: every error is the ucp envelope with messages[], never a stack trace.
 * A DomainError's status is its code's (`statusOf`); framework errors keep theirs. Unknown errors are logged
 * (without request headers) and answered 500 `internal_error`.
 */
@Catch()
export class UcpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('UcpExceptionFilter');

  constructor(@Optional() @Inject(APP_CONFIG) private readonly config: AppConfig | null = null) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const res = host.switchToHttp().getResponse<Response>();
    // A database connection that died under the request (a pooler's hard restart): 503 with Retry-After (issue 38).
    const lost = lostConnectionError(exception);
    if (lost) this.logger.warn(`database connection lost during ${host.switchToHttp().getRequest<Request>().method} request: ${(exception as Error).message}`);
    const error = lost ?? exception;
    const { status, messages, body } = toHttp(error, this.logger);
    if (res.headersSent) return;
    // An attempt still in progress: when to ask again (issue 27).
    if (error instanceof DomainError && error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
    // Every 503 says when to ask again (issue 38): the cause is one the service expects to pass.
    else if (status === 503) res.setHeader('Retry-After', '1');
    if (status === 401) res.setHeader('WWW-Authenticate', challengeOf(host.switchToHttp().getRequest<Request>(), this.config));
    res.status(status).json({ ...errorBody(messages), ...(body ?? {}) });
  }
}

/** Every 401 names the protected resource metadata (RFC 9728), so an OAuth client finds the authorization server (issue 36). */
export function challengeOf(req: Request, config: Pick<AppConfig, 'publicUrl'> | null): string {
  return unauthorizedChallenge(publicBase(config?.publicUrl ?? null, req), bearerFrom(req.headers.authorization) !== null);
}

export function toHttp(
  exception: unknown,
  logger?: Logger,
): { status: number; messages: UcpMessage[]; body?: Record<string, unknown> } {
  const lost = lostConnectionError(exception);
  if (lost) return toHttp(lost);
  if (exception instanceof DomainError) {
    return { status: statusOf(exception.code), messages: exception.messages, body: exception.body };
  }
  const bodyParser = exception as { type?: string; status?: number; statusCode?: number };
  if (bodyParser && typeof bodyParser.type === 'string') {
    if (bodyParser.type === 'entity.too.large') return toHttp(new DomainError('request_too_large', 'the request body exceeds the size limit'));
    if (bodyParser.type === 'entity.parse.failed') return toHttp(new DomainError('invalid', 'the request body is not valid JSON'));
    if (bodyParser.type === 'encoding.unsupported' || bodyParser.type === 'charset.unsupported') {
      return toHttp(new DomainError('invalid', 'unsupported request encoding'));
    }
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) return toHttp(new DomainError('not_found', 'no such route'));
    if (status === 413) return toHttp(new DomainError('request_too_large', 'the request body exceeds the size limit'));
    if (status === 400) return toHttp(new DomainError('invalid', exception.message));
    if (status === 405) return toHttp(new DomainError('method_not_allowed', exception.message));
    // Any other framework refusal keeps the framework's status (the one code answered with more than one status).
    if (status < 500) return { status, messages: [message('invalid', 'unrecoverable', exception.message)] };
  }
  logger?.error(`unhandled error: ${(exception as Error)?.stack ?? String(exception)}`);
  return toHttp(new DomainError('internal_error', 'internal error; see the service log'));
}
