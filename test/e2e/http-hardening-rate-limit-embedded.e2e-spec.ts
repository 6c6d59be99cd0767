import { rateLimitPerCredentialSuite } from './http-hardening.suite';

/**
 * Issue 17 item 5 (http-hardening.suite.ts), the rate limit per credential, on the embedded database; PostgreSQL is
 * http-hardening.e2e-spec.ts, the embedded headers part http-hardening-embedded.e2e-spec.ts.
 */
rateLimitPerCredentialSuite('embedded');
