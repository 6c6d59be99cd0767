import { everyRouteCounts } from './rate-limit-every-route.suite';

/** Issue 37 item 2 (rate-limit-every-route.suite.ts) on PostgreSQL; the embedded database is rate-limit-every-route-embedded.e2e-spec.ts. */
everyRouteCounts('postgres');
