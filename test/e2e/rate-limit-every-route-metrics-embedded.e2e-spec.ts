import { everyRouteWrongTokensOnMetrics } from './rate-limit-every-route.suite';

/**
 * Issue 37 item 2 (rate-limit-every-route.suite.ts) on the embedded database: wrong tokens on /metrics count against
 * the address; PostgreSQL is rate-limit-every-route-metrics.e2e-spec.ts.
 */
everyRouteWrongTokensOnMetrics('embedded');
