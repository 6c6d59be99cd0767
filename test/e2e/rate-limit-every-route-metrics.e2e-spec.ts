import { everyRouteWrongTokensOnMetrics } from './rate-limit-every-route.suite';

/**
 * Issue 37 item 2 (rate-limit-every-route.suite.ts) on PostgreSQL: wrong tokens on /metrics count against the address;
 * the embedded database is rate-limit-every-route-metrics-embedded.e2e-spec.ts.
 */
everyRouteWrongTokensOnMetrics('postgres');
