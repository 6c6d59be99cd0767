import { everyRouteWrongTokensOnDocuments } from './rate-limit-every-route.suite';

/**
 * Issue 37 item 2 (rate-limit-every-route.suite.ts) on the embedded database: wrong tokens on the OpenAPI and AsyncAPI
 * documents count against the address; PostgreSQL is rate-limit-every-route-documents.e2e-spec.ts.
 */
everyRouteWrongTokensOnDocuments('embedded');
