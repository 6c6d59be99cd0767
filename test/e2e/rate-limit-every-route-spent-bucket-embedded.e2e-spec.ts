import { everyRouteSpentBucket } from './rate-limit-every-route.suite';

/**
 * Issue 37 item 2 (rate-limit-every-route.suite.ts) on the embedded database: a bucket spent on other routes closes the
 * documents and the console too; PostgreSQL is rate-limit-every-route-spent-bucket.e2e-spec.ts.
 */
everyRouteSpentBucket('embedded');
