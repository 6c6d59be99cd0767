import type { LoggerService, LogLevel } from '@nestjs/common';
import type { Logger as PinoLogger } from 'pino';

type PinoLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Nest's own boot lines (a line per module, controller and route: about 110 at boot) are written at debug, not
 * info (issue 28): they say nothing an operator acts on, and buried the URL and token on `npm start`'s terminal.
 * `LOG_LEVEL=debug` shows them again.
 */
export const FRAMEWORK_BOOT_CONTEXTS: ReadonlySet<string> = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication', 'WebSocketsController']);

/** Nest's logger interface over the process's pino logger: `new Logger(Context)` lines come out as pino JSON. */
export class AppLogger implements LoggerService {
  constructor(private readonly pino: PinoLogger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }
  setLogLevels(_levels: LogLevel[]): void {
    // The level is pino's (LOG_LEVEL); Nest's own list is not used.
  }

  /** Nest passes `(message, ...optional, context)`; for errors the optional one may be a stack. */
  private write(asked: PinoLevel, message: unknown, params: unknown[]): void {
    const context = params.length && typeof params[params.length - 1] === 'string' ? (params[params.length - 1] as string) : undefined;
    const level = asked === 'info' && context !== undefined && FRAMEWORK_BOOT_CONTEXTS.has(context) ? 'debug' : asked;
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const rest = [...params];
    if (context !== undefined) fields.context = rest.pop();
    const stack = rest.find((p) => typeof p === 'string' && p.includes('\n'));
    if (stack) fields.err = { stack };
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else if (message !== null && typeof message === 'object') {
      this.pino[level]({ ...fields, ...(message as Record<string, unknown>) });
    } else {
      this.pino[level](fields, String(message));
    }
  }
}
