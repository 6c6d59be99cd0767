import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';

/**
 * Structured request logs (pino) with redaction: credentials never reach a log line. Headers that may carry the
 * token are removed by path, and the query string is not logged (a token must never be in a URL anyway).
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

export function loggerParams(opts: { level?: string; destination?: DestinationStream } = {}): Params {
  return {
    pinoHttp: {
      level: opts.level ?? process.env.LOG_LEVEL ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        req: (req: { id: unknown; method: string; url: string; headers: Record<string, unknown> }) => ({
          id: req.id,
          method: req.method,
          path: String(req.url).split('?')[0],
          headers: { ...req.headers },
        }),
      },
      // UCP-Agent names the calling platform's profile: recorded with each request (not a secret; bounded).
      customProps: (req) => {
        const agent = req.headers['ucp-agent'];
        return typeof agent === 'string' ? { service: 'vending-commerce', ucp_agent: agent.slice(0, 300) } : { service: 'vending-commerce' };
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
      ...(opts.destination ? { stream: opts.destination } : {}),
    },
  };
}
