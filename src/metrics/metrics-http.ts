import type { NextFunction, Request, Response } from 'express';
import { errorBody, message } from '../common/envelope/envelope';
import { bearerFrom, tokenMatches } from '../common/auth/token';
import { routeLabel } from './metrics.rules';
import { MetricsService } from './metrics.service';

export const METRICS_PATH = '/metrics';

/** Times every request but the scrape itself, labelled by the route pattern that matched and the status. */
export function requestTimer(metrics: MetricsService) {
  return function timeRequest(req: Request, res: Response, next: NextFunction): void {
    if (req.path === METRICS_PATH) return next();
    const start = performance.now();
    res.once('finish', () => {
      const route = routeLabel((req.route as { path?: string } | undefined)?.path, req.path);
      metrics.observeRequest(req.method, route, res.statusCode, (performance.now() - start) / 1000);
    });
    next();
  };
}

/** The rate limit's credential of a right scraper token on `/metrics` (its own bucket, like an API credential). */
export function metricsCredential(token: string | null) {
  return (req: Request): string | null => (token !== null && req.path === METRICS_PATH && tokenMatches(bearerFrom(req.headers.authorization), token) ? 'metrics' : null);
}

/**
 * GET /metrics in the Prometheus text format, behind its own bearer token (SERVICE_METRICS_TOKEN; the API's tokens
 * are not accepted, and a scraper's token opens nothing else). Without the setting the path answers 404.
 */
export function metricsEndpoint(metrics: MetricsService, token: string | null) {
  return async function serveMetrics(req: Request, res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    if (token === null) {
      res.status(404).json(errorBody([message('not_found', 'unrecoverable', 'metrics are off: set SERVICE_METRICS_TOKEN')]));
      return;
    }
    if (!tokenMatches(bearerFrom(req.headers.authorization), token)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      res.status(401).json(errorBody([message('unauthorized', 'unrecoverable', 'the metrics token (SERVICE_METRICS_TOKEN) is required')]));
      return;
    }
    const { contentType, text } = await metrics.render();
    res.setHeader('Content-Type', contentType);
    res.status(200).send(text);
  };
}
