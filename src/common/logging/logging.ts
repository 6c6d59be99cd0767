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
    opts.destination ?? bufferedStdout(),
  );
}

/** How long a line may wait in the buffer: a quiet service (a few lines at boot, then none) still shows them. */
export const LOG_FLUSH_MS = 1000;

/** stdout through a 4 KiB buffer, flushed at least every LOG_FLUSH_MS (issue 28: the boot's few lines stayed in it). */
function bufferedStdout(): DestinationStream {
  const dest = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const timer = setInterval(() => {
    try {
      dest.flush();
    } catch {
      // not open yet, or closed at exit: the next tick or pino's exit flush writes it
    }
  }, LOG_FLUSH_MS);
  timer.unref();
  return dest;
}
