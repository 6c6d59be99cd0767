import { everyRouteCounts } from './rate-limit-every-route.suite';

/** Issue 37 item 2 (rate-limit-every-route.suite.ts) on the embedded database; PostgreSQL is rate-limit-every-route.e2e-spec.ts. */
everyRouteCounts('embedded');
