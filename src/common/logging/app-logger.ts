import type { LoggerService, LogLevel } from '@nestjs/common';
import type { Logger as PinoLogger } from 'pino';

type PinoLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

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
  private write(level: PinoLevel, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const rest = [...params];
    if (rest.length && typeof rest[rest.length - 1] === 'string') fields.context = rest.pop();
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
