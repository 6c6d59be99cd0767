import type { NextFunction, Request, Response } from 'express';
import pino from 'pino';
import { agentClientOf } from '../auth/credential';
import type { Logger as PinoLogger } from 'pino';

const UNLOGGED_PATHS = new Set(['/healthz', '/readyz']);
const AGENT_MAX = 300;

/**
 * One line per finished request: id, method, path (never the query string), status, time in ms and, when sent, the
 * UCP-Agent (the calling platform's profile: not a secret, bounded). Issue 13: the line is the same pino JSON
 * (level, time, the logger's bindings) written straight to the logger's destination, with no per-request child
 * logger, serializer or redaction pass: pino-http's per-request work was 7% of a list read's CPU, pino's own call
 * with redaction another 3–4%. Nothing secret can be in it: headers are not logged.
 */
export function requestLog(logger: PinoLogger) {
  const out = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[pino.symbols.streamSym];
  const bindings = (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym];
  const info = logger.isLevelEnabled('info') ? logger.levels.values.info : 0;
  const error = logger.isLevelEnabled('error') ? logger.levels.values.error : 0;
  let seq = 0;
  return function logRequest(req: Request, res: Response, next: NextFunction): void {
    const url = req.url;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (UNLOGGED_PATHS.has(path) || !error) return next();
    const start = performance.now();
    const id = ++seq;
    // 'close' comes after 'finish', or alone when the client went away first.
    res.once('close', () => {
      const failed = res.writableFinished && res.statusCode >= 500;
      const level = failed ? error : info;
      if (!level) return;
      const msg = !res.writableFinished ? 'request aborted' : failed ? 'request errored' : 'request completed';
      const agent = req.headers['ucp-agent'];
      const client = agentClientOf(req); // an agent's OAuth client (issue 36): an id, never its token
      out.write(
        `{"level":${level},"time":${Date.now()}${bindings},"req":{"id":${id},"method":${JSON.stringify(req.method)},"path":${JSON.stringify(path)}},` +
          `"res":{"statusCode":${res.statusCode}},"responseTime":${Math.round(performance.now() - start)}` +
          `${typeof agent === 'string' ? `,"ucp_agent":${JSON.stringify(agent.slice(0, AGENT_MAX))}` : ''}${client ? `,"client_id":${JSON.stringify(client.slice(0, AGENT_MAX))}` : ''},"msg":"${msg}"}\n`,
      );
    });
    next();
  };
}
