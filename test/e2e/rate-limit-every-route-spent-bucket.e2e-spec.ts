import { everyRouteSpentBucket } from './rate-limit-every-route.suite';

/**
 * Issue 37 item 2 (rate-limit-every-route.suite.ts) on PostgreSQL: a bucket spent on other routes closes the documents
 * and the console too; the embedded database is rate-limit-every-route-spent-bucket-embedded.e2e-spec.ts.
 */
everyRouteSpentBucket('postgres');
