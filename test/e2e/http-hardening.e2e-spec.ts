import { httpHardeningSuite, rateLimitPerCredentialSuite } from './http-hardening.suite';

/**
 * Issue 17 item 5 (http-hardening.suite.ts) on PostgreSQL; on the embedded database the headers part is
 * http-hardening-embedded.e2e-spec.ts (with production links) and the rate limit per credential is
 * http-hardening-rate-limit-embedded.e2e-spec.ts.
 */
httpHardeningSuite('postgres');
rateLimitPerCredentialSuite('postgres');
