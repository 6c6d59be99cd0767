import { hostname } from 'node:os';
import type { Params } from 'nestjs-pino';
import pino from 'pino';
import type { DestinationStream } from 'pino';

/**
 * Structured request logs (pino) with redaction: credentials never reach a log line. Headers that may carry the
 * token are left out of the request record when it is built (and redacted by path as a second guard), and the query
 * string is not logged (a token must never be in a URL anyway).
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

const SECRET_HEADERS = new Set(['authorization', 'cookie', 'idempotency-key']);

/**
 * Issue 13, logging that costs microseconds per request: the `service` field is a base binding (no per-request
 * child for it), the UCP-Agent child exists only when the header does, and lines go to stdout through an
 * asynchronous buffered destination (pino flushes it at exit) instead of one synchronous write per line.
 */
export function loggerParams(opts: { level?: string; destination?: DestinationStream } = {}): Params {
  return {
    pinoHttp: {
      level: opts.level ?? process.env.LOG_LEVEL ?? 'info',
      base: { pid: process.pid, hostname: hostname(), service: 'vending-commerce' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        req: (req: { id: unknown; method: string; url: string; headers: Record<string, unknown> }) => {
          const headers: Record<string, unknown> = {};
          for (const k in req.headers) headers[k] = SECRET_HEADERS.has(k) ? '[redacted]' : req.headers[k];
          const q = String(req.url).indexOf('?');
          return { id: req.id, method: req.method, path: q < 0 ? req.url : String(req.url).slice(0, q), headers };
        },
      },
      // UCP-Agent names the calling platform's profile: recorded with each request (not a secret; bounded).
      customProps: (req) => {
        const agent = req.headers['ucp-agent'];
        // pino-http skips the child when this is falsy; its type insists on an object.
        return (typeof agent === 'string' ? { ucp_agent: agent.slice(0, 300) } : undefined) as object;
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
      stream: opts.destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }),
    },
  };
}
