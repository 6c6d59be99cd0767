import { hostname } from 'node:os';
import pino from 'pino';
import type { DestinationStream, Logger as PinoLogger } from 'pino';

/**
 * Structured logs (pino) with redaction: credentials never reach a log line. Request lines carry the method, the
 * path without its query string (a token must never be in a URL anyway), the status and the time; headers are not
 * logged, and these paths are redacted as a second guard in whatever else is logged.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
  '*.token',
  '*.authToken',
  '*.password',
];

export interface LoggingOptions {
  level?: string;
  destination?: DestinationStream;
}

/**
 * The process's one pino logger. `service` is a base binding (no per-request child), and lines go to stdout through
 * an asynchronous buffered destination (pino flushes it at exit) instead of one synchronous write per line.
 */
export function createRootLogger(opts: LoggingOptions = {}): PinoLogger {
  return pino(
    {
      level: opts.level ?? process.env.LOG_LEVEL ?? 'info',
      base: { pid: process.pid, hostname: hostname(), service: 'vending-commerce' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    opts.destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }),
  );
}
