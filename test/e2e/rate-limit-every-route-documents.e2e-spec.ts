import { everyRouteWrongTokensOnDocuments } from './rate-limit-every-route.suite';

/**
 * Issue 37 item 2 (rate-limit-every-route.suite.ts) on PostgreSQL: wrong tokens on the OpenAPI and AsyncAPI documents
 * count against the address; the embedded database is rate-limit-every-route-documents-embedded.e2e-spec.ts.
 */
everyRouteWrongTokensOnDocuments('postgres');
